package dev.agentbus.gateway.accounts.users;

import dev.agentbus.api.ApiJson;
import dev.agentbus.api.accounts.Login;
import dev.agentbus.api.accounts.Me;
import dev.agentbus.gateway.accounts.apikeys.ApiKeys;
import dev.agentbus.gateway.accounts.auditing.AccountEvents;
import dev.agentbus.gateway.accounts.signingin.LoginSessions;
import dev.agentbus.gateway.auth.Authenticator;
import dev.agentbus.gateway.auth.Caller;
import dev.agentbus.gateway.errors.ApiException;
import dev.agentbus.gateway.readmodels.ReadModelDatabase;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Consumes;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Delete;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.Post;
import io.micronaut.http.annotation.Produces;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;

import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import static dev.agentbus.gateway.auth.Callers.addressOf;
import static dev.agentbus.gateway.auth.Callers.callerOf;

/**
 * The caller's own account: {@code GET /api/v1/me}, {@code POST /api/v1/me/password}, and the page of their browser
 * logins, {@code GET /api/v1/me/logins} and {@code DELETE /api/v1/me/logins/{loginId}}. Changing the password and
 * ending a login need a browser login and the current password ({@link Reauthentication}).
 */
@Controller("/api/v1/me")
@ExecuteOn(TaskExecutors.BLOCKING)
class MeController {
    private final ReadModelDatabase database;
    private final Passwords passwords;
    private final Authenticator authenticator;
    private final Reauthentication reauthentication;
    private final Clock clock = Clock.systemUTC();

    MeController(ReadModelDatabase database, Passwords passwords, Authenticator authenticator,
                 Reauthentication reauthentication) {
        this.database = database;
        this.passwords = passwords;
        this.authenticator = authenticator;
        this.reauthentication = reauthentication;
    }

    /** {@code current} is the older name of {@code currentPassword}; either is read. */
    public record ChangePassword(@Nullable String currentPassword, @Nullable String current,
                                 @Nullable String password) {
        String currentOne() {
            return currentPassword != null ? currentPassword : current;
        }
    }

    /** What ending a login needs: the current password. */
    public record Confirmation(@Nullable String currentPassword) {
    }

    @Get
    @Produces(MediaType.APPLICATION_JSON)
    public String me(HttpRequest<?> request) {
        Caller c = callerOf(request);
        boolean mustEnrol = c.via() == Caller.Via.LOGIN && !c.totpEnabled() && authenticator.totpRequired();
        return ApiJson.write(new Me(c.userId(), c.username(), c.role().wireName(), c.totpEnabled(),
                c.via().wireName(), c.csrfToken(), mustEnrol));
    }

    /**
     * A new password: needs a browser login (or the gateway token) and the current password, like everything that
     * could take the account over ({@link Reauthentication}). Ends every other login and revokes every API key, so
     * whoever had the old password or a key keeps nothing.
     */
    @Post("/password")
    @Consumes(MediaType.APPLICATION_JSON)
    public HttpResponse<Void> changePassword(@Body @Nullable ChangePassword body, HttpRequest<?> request) {
        Caller caller = callerOf(request);
        if (body == null || body.currentOne() == null || body.password() == null) {
            throw ApiException.badRequest("currentPassword and password are required");
        }
        Account account = reauthentication.require(caller, body.currentOne(), "change the password")
                .orElseThrow(() -> ApiException.badRequest("the gateway token has no account to change; log in"));
        if (caller.via() == Caller.Via.GATEWAY_TOKEN && !passwords.verifyOrWaste(body.currentOne(),
                account.passwordHash())) {
            throw ApiException.badRequest("the current password is wrong");
        }
        passwords.checkNew(body.password(), account.username());
        if (passwords.verifyOrWaste(body.password(), account.passwordHash())) {
            throw ApiException.badRequest("the new password is the same as the current one");
        }
        String hash = passwords.hashNew(body.password(), account.username());
        Instant now = clock.instant();
        String keep = caller.via() == Caller.Via.LOGIN ? caller.credentialId() : null;
        database.query(c -> {
            Accounts.setPassword(c, caller.userId(), hash, now);
            List<String> ended = LoginSessions.endAllBut(c, caller.userId(), keep, now);
            List<String> revoked = ApiKeys.revokeAll(c, caller.userId(), now);
            AccountEvents.append(c, now, AccountEvents.PASSWORD_CHANGED, caller.userId(), caller.userId(),
                    addressOf(request), Map.of("loginsEnded", ended.size(), "apiKeysRevoked", revoked.size()));
            return null;
        });
        authenticator.forgetUser(caller.userId());
        return HttpResponse.noContent();
    }

    @Get("/logins")
    @Produces(MediaType.APPLICATION_JSON)
    public String logins(HttpRequest<?> request) {
        Caller caller = callerOf(request);
        Instant now = clock.instant();
        return ApiJson.write(database.query(c -> LoginSessions.liveOf(c, caller.userId(), now)).stream()
                .map(l -> new Login(l.loginId(), l.createdAt(), l.lastSeenAt(), l.expiresAt(), l.address(),
                        l.userAgent(), l.loginId().equals(caller.credentialId()))).toList());
    }

    /** Ends one of the caller's logins; needs a browser login and the current password ({@link Reauthentication}). */
    @Delete("/logins/{loginId}")
    @Consumes(MediaType.APPLICATION_JSON)
    public HttpResponse<Void> endLogin(String loginId, @Body @Nullable Confirmation body, HttpRequest<?> request) {
        Caller caller = callerOf(request);
        reauthentication.require(caller, body == null ? null : body.currentPassword(), "end a login");
        Instant now = clock.instant();
        boolean ended = database.query(c -> AccountEvents.ifChanged(c,
                LoginSessions.end(c, caller.userId(), loginId, now), now, AccountEvents.LOGIN_ENDED, caller.userId(),
                addressOf(request), Map.of("loginId", loginId)));
        if (!ended) {
            throw ApiException.notFound("no login " + loginId);
        }
        authenticator.forgetUser(caller.userId());
        return HttpResponse.noContent();
    }
}
