package dev.agentbus.gateway.accounts.users;

import dev.agentbus.api.ApiJson;
import dev.agentbus.api.accounts.TeamSettings;
import dev.agentbus.api.accounts.User;
import dev.agentbus.gateway.accounts.apikeys.ApiKeys;
import dev.agentbus.gateway.accounts.auditing.AccountEvents;
import dev.agentbus.gateway.accounts.groups.Groups;
import dev.agentbus.gateway.accounts.signingin.LoginSessions;
import dev.agentbus.gateway.accounts.twofactor.SecondFactor;
import dev.agentbus.gateway.auth.Authenticator;
import dev.agentbus.gateway.auth.Caller;
import dev.agentbus.gateway.auth.Role;
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
import io.micronaut.http.annotation.Delete;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.Post;
import io.micronaut.http.annotation.Produces;
import io.micronaut.http.annotation.Put;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static dev.agentbus.gateway.auth.Callers.addressOf;
import static dev.agentbus.gateway.auth.Callers.callerOf;
import static dev.agentbus.gateway.auth.Callers.userOf;

/**
 * Managing the team (admins only: the filter checks): {@code GET /api/v1/admin/users}, a user's role
 * ({@code PUT /api/v1/admin/users/{userId}/role}), a password reset that ends the user's logins
 * ({@code POST /api/v1/admin/users/{userId}/password}, which also revokes their keys), a reset of their two-factor
 * login ({@code DELETE .../totp}), revoking all their keys ({@code DELETE .../api-keys}) and the team's rules
 * ({@code GET/PUT /api/v1/admin/settings}). Each is in the account audit; each closes what it revoked at once.
 */
@Controller("/api/v1/admin")
@ExecuteOn(TaskExecutors.BLOCKING)
class AdminUsersController {
    private final ReadModelDatabase database;
    private final Passwords passwords;
    private final Authenticator authenticator;
    private final Clock clock = Clock.systemUTC();

    AdminUsersController(ReadModelDatabase database, Passwords passwords, Authenticator authenticator) {
        this.database = database;
        this.passwords = passwords;
        this.authenticator = authenticator;
    }

    public record RoleChange(@Nullable String role) {
    }

    public record PasswordReset(@Nullable String password) {
    }

    public record Rules(@Nullable Boolean requireTotp) {
    }

    @Get("/users")
    @Produces(MediaType.APPLICATION_JSON)
    public String users() {
        return ApiJson.write(database.query(c -> {
            List<User> users = new ArrayList<>();
            for (Account a : Accounts.all(c)) {
                users.add(new User(a.userId(), a.username(), a.role().wireName(), a.totpEnabled(), a.createdAt(),
                        Groups.of(c, a.userId())));
            }
            return users;
        }));
    }

    @Put("/users/{userId}/role")
    @Consumes(MediaType.APPLICATION_JSON)
    public HttpResponse<Void> setRole(String userId, @Body @Nullable RoleChange body, HttpRequest<?> request) {
        Role role;
        try {
            role = Role.parse(body == null ? null : body.role());
        } catch (IllegalArgumentException e) {
            throw ApiException.badRequest(e.getMessage());
        }
        Instant now = clock.instant();
        database.query(c -> {
            Account a = existing(c, userId);
            if (a.role() == Role.ADMIN && role != Role.ADMIN && admins(c) <= 1) {
                throw new ApiException(HttpStatus.CONFLICT, a.username() + " is the last admin");
            }
            Accounts.setRole(c, userId, role);
            AccountEvents.append(c, now, AccountEvents.ROLE_CHANGED, userId, userOf(request), addressOf(request),
                    Map.of("from", a.role().wireName(), "to", role.wireName()));
            return null;
        });
        authenticator.forgetUser(userId);
        return HttpResponse.noContent();
    }

    @Post("/users/{userId}/password")
    @Consumes(MediaType.APPLICATION_JSON)
    public HttpResponse<Void> resetPassword(String userId, @Body @Nullable PasswordReset body,
                                            HttpRequest<?> request) {
        Account target = database.query(c -> existing(c, userId));
        String hash = passwords.hashNew(body == null ? null : body.password(), target.username());
        Instant now = clock.instant();
        database.query(c -> {
            existing(c, userId);
            Accounts.setPassword(c, userId, hash, now);
            // Whoever had the account keeps nothing: every login and every key ends with the old password.
            List<String> ended = LoginSessions.endAll(c, userId, now);
            List<String> revoked = ApiKeys.revokeAll(c, userId, now);
            AccountEvents.append(c, now, AccountEvents.PASSWORD_RESET, userId, userOf(request), addressOf(request),
                    Map.of("loginsEnded", ended.size(), "apiKeysRevoked", revoked.size()));
            return null;
        });
        authenticator.forgetUser(userId);
        return HttpResponse.noContent();
    }

    /**
     * Turns a user's two-factor login off (a lost authenticator, a locked factor, a secret enrolled by someone else):
     * the secret, the backup codes and the lock go; the user can enrol again.
     */
    @Delete("/users/{userId}/totp")
    public HttpResponse<Void> resetTotp(String userId, HttpRequest<?> request) {
        Instant now = clock.instant();
        database.query(c -> {
            Account a = existing(c, userId);
            SecondFactor.reset(c, userId);
            AccountEvents.append(c, now, AccountEvents.TOTP_RESET, userId, userOf(request), addressOf(request),
                    Map.of("wasEnabled", a.totpEnabled()));
            return null;
        });
        authenticator.forgetUser(userId);
        return HttpResponse.noContent();
    }

    /** Revokes every API key of a user at once (a key leaked, and perhaps more made with it). */
    @Delete("/users/{userId}/api-keys")
    @Produces(MediaType.APPLICATION_JSON)
    public String revokeKeys(String userId, HttpRequest<?> request) {
        Instant now = clock.instant();
        List<String> revoked = database.query(c -> {
            existing(c, userId);
            List<String> ids = ApiKeys.revokeAll(c, userId, now);
            AccountEvents.append(c, now, AccountEvents.API_KEYS_REVOKED, userId, userOf(request), addressOf(request),
                    Map.of("keyIds", ids));
            return ids;
        });
        authenticator.forgetUser(userId);
        return ApiJson.write(Map.of("revoked", revoked));
    }

    @Get("/settings")
    @Produces(MediaType.APPLICATION_JSON)
    public String settings() {
        return ApiJson.write(new TeamSettings(database.query(TeamRules::requireTotp)));
    }

    @Put("/settings")
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public String changeSettings(@Body @Nullable Rules body, HttpRequest<?> request) {
        if (body == null || body.requireTotp() == null) {
            throw ApiException.badRequest("requireTotp (true or false) is required");
        }
        Caller caller = callerOf(request);
        if (body.requireTotp() && caller.via() == Caller.Via.LOGIN && !caller.totpEnabled()) {
            throw new ApiException(HttpStatus.CONFLICT, "turn on two-factor login for yourself first "
                    + "(POST /api/v1/me/totp): this login could not reach anything else afterwards");
        }
        Instant now = clock.instant();
        database.query(c -> {
            TeamRules.setRequireTotp(c, body.requireTotp());
            AccountEvents.append(c, now, AccountEvents.SETTINGS_CHANGED, null, userOf(request), addressOf(request),
                    Map.of("requireTotp", body.requireTotp()));
            return null;
        });
        authenticator.forgetRules();
        return ApiJson.write(new TeamSettings(body.requireTotp()));
    }

    private static Account existing(Connection c, String userId) throws SQLException {
        return Accounts.byId(c, userId).orElseThrow(() -> ApiException.notFound("no user " + userId));
    }

    private static long admins(Connection c) throws SQLException {
        return Accounts.all(c).stream().filter(a -> a.role() == Role.ADMIN).count();
    }
}
