package dev.agentbus.gateway.accounts.signingin;

import dev.agentbus.api.ApiJson;
import dev.agentbus.api.accounts.LoggedIn;
import dev.agentbus.gateway.accounts.auditing.AccountEvents;
import dev.agentbus.gateway.accounts.credentials.SecretTokens;
import dev.agentbus.gateway.accounts.twofactor.SecondFactor;
import dev.agentbus.gateway.accounts.users.Account;
import dev.agentbus.gateway.accounts.users.Accounts;
import dev.agentbus.gateway.accounts.users.Passwords;
import dev.agentbus.gateway.accounts.users.TeamRules;
import dev.agentbus.gateway.auth.AuthSettings;
import dev.agentbus.gateway.auth.Authenticator;
import dev.agentbus.gateway.auth.Caller;
import dev.agentbus.gateway.auth.LoginCookie;
import dev.agentbus.gateway.auth.LoginThrottle;
import dev.agentbus.gateway.errors.ApiException;
import dev.agentbus.gateway.readmodels.ReadModelDatabase;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Consumes;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Post;
import io.micronaut.http.annotation.Produces;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

import static dev.agentbus.gateway.auth.Callers.addressOf;
import static dev.agentbus.gateway.auth.Callers.callerOf;

/**
 * Browser logins: {@code POST /api/v1/auth/login} checks the password (and the second factor when the account has
 * one) and sets the login cookie; {@code POST /api/v1/auth/logout} ends the login. Failed attempts are throttled per
 * username and per address ({@link LoginThrottle}: a username over its limit is refused outright, an address over its
 * limit only for wrong passwords) and every attempt is an account event.
 */
@Controller("/api/v1/auth")
@ExecuteOn(TaskExecutors.BLOCKING)
class LoginController {
    private final ReadModelDatabase database;
    private final Passwords passwords;
    private final AuthSettings settings;
    private final Authenticator authenticator;
    private final LoginThrottle throttle;
    private final Clock clock = Clock.systemUTC();

    LoginController(ReadModelDatabase database, Passwords passwords, AuthSettings settings,
                    Authenticator authenticator, LoginThrottle throttle) {
        this.database = database;
        this.passwords = passwords;
        this.settings = settings;
        this.authenticator = authenticator;
        this.throttle = throttle;
    }

    public record LoginRequest(@Nullable String username, @Nullable String password, @Nullable String totp) {
    }

    @Post("/login")
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public HttpResponse<String> login(@Body @Nullable LoginRequest body, HttpRequest<?> request) {
        if (body == null || body.username() == null || body.username().isBlank() || body.password() == null) {
            throw ApiException.badRequest("username and password are required");
        }
        String address = addressOf(request);
        Instant now = clock.instant();
        Optional<Duration> wait = throttle.forUsername(body.username(), now);
        if (wait.isPresent()) {
            return tooMany(wait.get());
        }
        String username = Accounts.normalize(body.username());
        Optional<Account> account = database.query(c -> Accounts.byUsername(c, username));
        if (!passwords.verifyOrWaste(body.password(), account.map(Account::passwordHash).orElse(null))) {
            // The address's limit is asked only now: a correct password from a busy address (a proxy, an office's
            // NAT) logs in, only wrong ones are slowed (docs/security.md).
            Optional<Duration> busy = throttle.forAddress(address, now);
            HttpResponse<String> refused = failed(username, account, address, now, "wrong username or password",
                    "password");
            return busy.isPresent() ? tooMany(busy.get()) : refused;
        }
        Account a = account.get();
        String userAgent = request.getHeaders().get("User-Agent");
        String loginToken = SecretTokens.newToken("ls_");
        String csrf = SecretTokens.newToken("");
        Instant absolute = now.plus(settings.loginMaxAge());
        Instant expires = now.plus(settings.loginIdleTimeout()).isBefore(absolute)
                ? now.plus(settings.loginIdleTimeout()) : absolute;
        LoginSession login = new LoginSession(UUID.randomUUID().toString(), a.userId(), csrf, now, now, expires,
                absolute, address, userAgent);
        // The second factor and the new login are one transaction: a code is used up only by a login that happens.
        Object outcome = database.query(c -> {
            if (a.totpEnabled()) {
                if (body.totp() == null || body.totp().isBlank()) {
                    return "a two-factor code is required: send \"totp\" (or one of your backup codes)";
                }
                SecondFactor.Result second = SecondFactor.check(c, a, body.totp(), now, address);
                switch (second) {
                    case WRONG -> {
                        return "wrong two-factor code";
                    }
                    case LOCKED -> {
                        return "two-factor codes are locked for this account after " + SecondFactor.LOCK_AFTER
                                + " wrong ones in a row: log in with a backup code, or ask an admin to reset "
                                + "two-factor login";
                    }
                    case REPLAYED -> {
                        return "this two-factor code was already used; wait for the next one";
                    }
                    case BACKUP_CODE -> AccountEvents.append(c, now, AccountEvents.BACKUP_CODE_USED, a.userId(),
                            a.userId(), address, Map.of());
                    case TOTP -> {
                    }
                }
            }
            LoginSessions.insert(c, login, SecretTokens.sha256Hex(loginToken));
            AccountEvents.append(c, now, AccountEvents.LOGIN, a.userId(), a.userId(), address,
                    Map.of("loginId", login.loginId(), "secondFactor", a.totpEnabled()));
            return TeamRules.requireTotp(c) && !a.totpEnabled();
        });
        if (outcome instanceof String refusal) {
            boolean missing = body.totp() == null || body.totp().isBlank();
            if (missing) {
                // Not a failure: the password was right and the client asks for the code next.
                return HttpResponse.<String>status(HttpStatus.UNAUTHORIZED)
                        .body(ApiJson.write(Map.of("error", "unauthorized", "message", refusal,
                                "totpRequired", true)));
            }
            return failed(username, account, address, now, refusal, "second factor");
        }
        boolean mustEnrol = (Boolean) outcome;
        LoggedIn answer = new LoggedIn(a.userId(), a.username(), a.role().wireName(), login.loginId(), csrf, expires,
                mustEnrol);
        return HttpResponse.ok(ApiJson.write(answer))
                .cookie(LoginCookie.of(loginToken, Duration.between(now, absolute), request, settings));
    }

    @Post("/logout")
    @Produces(MediaType.APPLICATION_JSON)
    public HttpResponse<Void> logout(HttpRequest<?> request) {
        Caller caller = callerOf(request);
        if (caller.via() == Caller.Via.LOGIN) {
            Instant now = clock.instant();
            database.query(c -> AccountEvents.ifChanged(c, LoginSessions.end(c, caller.userId(),
                    caller.credentialId(), now), now, AccountEvents.LOGOUT, caller.userId(), addressOf(request),
                    Map.of("loginId", caller.credentialId())));
            authenticator.forgetUser(caller.userId());
        }
        return HttpResponse.<Void>noContent().cookie(LoginCookie.cleared(request, settings));
    }

    private static HttpResponse<String> tooMany(Duration wait) {
        long seconds = Math.max(1, (wait.toMillis() + 999) / 1000);
        return HttpResponse.<String>status(HttpStatus.TOO_MANY_REQUESTS).header("Retry-After", "" + seconds)
                .body(error(HttpStatus.TOO_MANY_REQUESTS, "too many failed logins; try again in " + seconds + " s"));
    }

    private HttpResponse<String> failed(String username, Optional<Account> account, String address, Instant now,
                                        String message, String what) {
        throttle.failed(username, address, now);
        database.query(c -> {
            AccountEvents.append(c, now, AccountEvents.LOGIN_FAILED, account.map(Account::userId).orElse(null),
                    null, address, Map.of("username", username, "failed", what));
            return null;
        });
        return HttpResponse.<String>status(HttpStatus.UNAUTHORIZED).body(error(HttpStatus.UNAUTHORIZED, message));
    }

    private static String error(HttpStatus status, String message) {
        return ApiJson.write(dev.agentbus.gateway.errors.ErrorBodies.of(status, message));
    }
}
