package dev.agentbus.gateway.accounts.users;

import dev.agentbus.gateway.accounts.credentials.PasswordHasher;
import dev.agentbus.gateway.auth.AuthSettings;
import dev.agentbus.gateway.errors.ApiException;
import jakarta.inject.Singleton;

/**
 * Password rules and hashing in one place: a minimum length (the one rule NIST SP 800-63B asks for), a maximum that
 * keeps a request from making the server hash megabytes, and Argon2id at OWASP's parameters. Verifying an unknown
 * user's password still costs one hash ({@link #verifyOrWaste}), so timing does not tell which usernames exist.
 */
@Singleton
public class Passwords {
    static final int MAX_LENGTH = 1024;

    private final PasswordHasher hasher;
    private final int minLength;
    private final String decoy;

    public Passwords(AuthSettings settings) {
        this(PasswordHasher.owasp(), settings.passwordMinLength());
    }

    Passwords(PasswordHasher hasher, int minLength) {
        this.hasher = hasher;
        this.minLength = minLength;
        this.decoy = hasher.hash("not a password anyone has: it only makes a miss cost as much as a hit");
    }

    /** @throws ApiException 400 with the rule broken */
    public String hashNew(String password) {
        if (password == null || password.length() < minLength) {
            throw ApiException.badRequest("the password must have at least " + minLength + " characters");
        }
        if (password.length() > MAX_LENGTH) {
            throw ApiException.badRequest("the password must have at most " + MAX_LENGTH + " characters");
        }
        return hasher.hash(password);
    }

    /** Checks a password against a stored hash, or against a decoy when there is no account (always false then). */
    public boolean verifyOrWaste(String password, String storedHash) {
        if (password == null || password.length() > MAX_LENGTH) {
            return false;
        }
        if (storedHash == null) {
            hasher.verify(password, decoy);
            return false;
        }
        return hasher.verify(password, storedHash);
    }
}
