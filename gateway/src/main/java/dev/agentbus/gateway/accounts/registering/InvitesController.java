package dev.agentbus.gateway.accounts.registering;

import dev.agentbus.api.ApiJson;
import dev.agentbus.api.accounts.Invite;
import dev.agentbus.gateway.accounts.auditing.AccountEvents;
import dev.agentbus.gateway.accounts.credentials.SecretTokens;
import dev.agentbus.gateway.auth.AuthSettings;
import dev.agentbus.gateway.auth.Role;
import dev.agentbus.gateway.errors.ApiException;
import dev.agentbus.gateway.readmodels.ReadModelDatabase;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
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

import static dev.agentbus.gateway.auth.Callers.addressOf;
import static dev.agentbus.gateway.auth.Callers.userOf;

/** {@code POST /api/v1/admin/invites}: an admin makes a single-use sign-up code (admins only: the filter checks). */
@Controller("/api/v1/admin/invites")
@ExecuteOn(TaskExecutors.BLOCKING)
class InvitesController {
    static final int MAX_HOURS = 24 * 90;

    private final ReadModelDatabase database;
    private final AuthSettings settings;
    private final Clock clock = Clock.systemUTC();

    InvitesController(ReadModelDatabase database, AuthSettings settings) {
        this.database = database;
        this.settings = settings;
    }

    public record NewInvite(@Nullable String role, @Nullable Integer expiresInHours) {
    }

    @Post
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public HttpResponse<String> create(@Body @Nullable NewInvite body, HttpRequest<?> request) {
        Role role;
        try {
            role = body == null || body.role() == null ? Role.USER : Role.parse(body.role());
        } catch (IllegalArgumentException e) {
            throw ApiException.badRequest(e.getMessage());
        }
        Duration validity = settings.inviteValidity();
        if (body != null && body.expiresInHours() != null) {
            if (body.expiresInHours() < 1 || body.expiresInHours() > MAX_HOURS) {
                throw ApiException.badRequest("expiresInHours must be 1 to " + MAX_HOURS);
            }
            validity = Duration.ofHours(body.expiresInHours());
        }
        String code = SecretTokens.newToken("inv_");
        Instant now = clock.instant();
        Instant expires = now.plus(validity);
        database.query(c -> {
            Invites.insert(c, SecretTokens.sha256Hex(code), role, userOf(request), now, expires);
            AccountEvents.append(c, now, AccountEvents.INVITE_CREATED, null, userOf(request), addressOf(request),
                    Map.of("role", role.wireName(), "expiresAt", expires.toString()));
            return null;
        });
        return HttpResponse.created(ApiJson.write(new Invite(code, role.wireName(), expires)));
    }
}
