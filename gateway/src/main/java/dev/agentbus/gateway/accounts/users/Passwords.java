package dev.agentbus.gateway.accounts.users;

import dev.agentbus.gateway.accounts.credentials.PasswordHasher;
import dev.agentbus.gateway.accounts.credentials.PasswordPolicy;
import dev.agentbus.gateway.auth.AuthSettings;
import dev.agentbus.gateway.errors.ApiException;
import jakarta.inject.Singleton;

/**
 * Password rules and hashing in one place: the rules of NIST SP 800-63B ({@link PasswordPolicy}: a minimum length,
 * not blank, not the username, not a common password), a maximum that keeps a request from making the server hash
 * megabytes, and Argon2id at OWASP's parameters. Verifying an unknown
 * user's password still costs one hash ({@link #verifyOrWaste}), so timing does not tell which usernames exist.
 */
@Singleton
public class Passwords {
    static final int MAX_LENGTH = PasswordPolicy.MAX_LENGTH;

    private final PasswordHasher hasher;
    private final PasswordPolicy policy;
    private final String decoy;

    public Passwords(AuthSettings settings) {
        this(PasswordHasher.owasp(), settings.passwordMinLength());
    }

    Passwords(PasswordHasher hasher, int minLength) {
        this.hasher = hasher;
        this.policy = new PasswordPolicy(minLength);
        this.decoy = hasher.hash("not a password anyone has: it only makes a miss cost as much as a hit");
    }

    /**
     * The hash of a new password for the account {@code username}.
     *
     * @throws ApiException 400 with the rule broken
     */
    public String hashNew(String password, String username) {
        checkNew(password, username);
        return hasher.hash(password);
    }

    /** @throws ApiException 400 with the rule the password breaks */
    public void checkNew(String password, String username) {
        policy.check(password, username).ifPresent(broken -> {
            throw ApiException.badRequest(broken);
        });
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
