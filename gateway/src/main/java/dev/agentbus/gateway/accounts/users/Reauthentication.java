package dev.agentbus.gateway.accounts.users;

import dev.agentbus.gateway.auth.Caller;
import dev.agentbus.gateway.auth.LoginThrottle;
import dev.agentbus.gateway.errors.ApiException;
import dev.agentbus.gateway.readmodels.ReadModelDatabase;
import io.micronaut.http.HttpStatus;
import jakarta.inject.Singleton;

import java.time.Clock;
import java.time.Duration;
import java.util.Optional;

/**
 * The door to what could take an account over: making API keys, enrolling a second factor, ending logins and
 * changing the password. A leaked API key must not be able to do these (a key would mint more keys, lock the owner
 * out with a TOTP secret only the thief knows, or end the owner's logins), so they need a browser login and the
 * account's current password in the request. The gateway token passes: it is the operator's credential, the first
 * admin's for scripts, and can already reset any account through the admin routes, so asking it for a password
 * would protect nothing (docs/security.md).
 *
 * <p>A wrong current password counts as a failed login for the username ({@link LoginThrottle}), so a stolen
 * cookie cannot guess the password here faster than at the login.
 */
@Singleton
public class Reauthentication {
    private final ReadModelDatabase database;
    private final Passwords passwords;
    private final LoginThrottle throttle;
    private final Clock clock = Clock.systemUTC();

    public Reauthentication(ReadModelDatabase database, Passwords passwords, LoginThrottle throttle) {
        this.database = database;
        this.passwords = passwords;
        this.throttle = throttle;
    }

    /**
     * @param what    what the caller wants to do, for the messages ("make an API key")
     * @param current the current password from the request body; null when none was sent
     * @return the caller's account (empty for the gateway token when it has none)
     * @throws ApiException 403 for an API key, 400 for a missing or wrong password, 429 when throttled
     */
    public Optional<Account> require(Caller caller, String current, String what) {
        if (caller.via() == Caller.Via.API_KEY) {
            throw new ApiException(HttpStatus.FORBIDDEN, "an API key cannot " + what + ": log in with a browser "
                    + "(and send your current password)");
        }
        Optional<Account> account = database.query(c -> Accounts.byId(c, caller.userId()));
        if (caller.via() == Caller.Via.GATEWAY_TOKEN) {
            return account;
        }
        if (current == null || current.isEmpty()) {
            throw ApiException.badRequest("to " + what + ", send your current password as \"currentPassword\"");
        }
        Optional<Duration> wait = throttle.retryAfter(caller.username(), null, clock.instant());
        if (wait.isPresent()) {
            throw new ApiException(HttpStatus.TOO_MANY_REQUESTS, "too many wrong passwords; try again in "
                    + Math.max(1, wait.get().toSeconds()) + " s");
        }
        if (!passwords.verifyOrWaste(current, account.map(Account::passwordHash).orElse(null))) {
            throttle.failed(caller.username(), null, clock.instant());
            throw ApiException.badRequest("the current password is wrong");
        }
        return account;
    }
}
