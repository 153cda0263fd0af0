package dev.agentbus.gateway.accounts.apikeys;

import dev.agentbus.api.ApiJson;
import dev.agentbus.api.accounts.CreatedApiKey;
import dev.agentbus.gateway.accounts.auditing.AccountEvents;
import dev.agentbus.gateway.accounts.credentials.SecretTokens;
import dev.agentbus.gateway.accounts.users.Accounts;
import dev.agentbus.gateway.accounts.users.Reauthentication;
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
import java.util.Map;
import java.util.UUID;

import static dev.agentbus.gateway.auth.Callers.addressOf;
import static dev.agentbus.gateway.auth.Callers.callerOf;

/**
 * The caller's API keys: {@code POST /api/v1/me/api-keys} makes one and shows it once (a browser login and the
 * current password, {@link Reauthentication}), {@code GET} lists them (never the key),
 * {@code DELETE /api/v1/me/api-keys/{id}} revokes one at once, open connections made with it included.
 */
@Controller("/api/v1/me/api-keys")
@ExecuteOn(TaskExecutors.BLOCKING)
class ApiKeysController {
    static final int MAX_NAME_CHARS = 100;

    private final ReadModelDatabase database;
    private final Authenticator authenticator;
    private final Reauthentication reauthentication;
    private final Clock clock = Clock.systemUTC();

    ApiKeysController(ReadModelDatabase database, Authenticator authenticator, Reauthentication reauthentication) {
        this.database = database;
        this.authenticator = authenticator;
        this.reauthentication = reauthentication;
    }

    public record NewKey(@Nullable String name, @Nullable String currentPassword) {
    }

    @Post
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public HttpResponse<String> create(@Body @Nullable NewKey body, HttpRequest<?> request) {
        Caller caller = callerOf(request);
        String name = body == null || body.name() == null ? "" : body.name().strip();
        if (name.isEmpty() || name.length() > MAX_NAME_CHARS) {
            throw ApiException.badRequest("name is required, at most " + MAX_NAME_CHARS + " characters");
        }
        // A key cannot make keys: revoking a leaked one would change nothing if it could (issue 28).
        reauthentication.require(caller, body.currentPassword(), "make an API key");
        String key = SecretTokens.newToken("ab_");
        String id = UUID.randomUUID().toString();
        Instant now = clock.instant();
        database.query(c -> {
            if (Accounts.byId(c, caller.userId()).isEmpty()) {
                throw ApiException.badRequest("the gateway token has no account to hold keys; log in as admin");
            }
            ApiKeys.insert(c, id, caller.userId(), name, SecretTokens.sha256Hex(key), now);
            AccountEvents.append(c, now, AccountEvents.API_KEY_CREATED, caller.userId(), caller.userId(),
                    addressOf(request), Map.of("keyId", id, "name", name));
            return null;
        });
        return HttpResponse.created(ApiJson.write(new CreatedApiKey(id, name, key, now)));
    }

    @Get
    @Produces(MediaType.APPLICATION_JSON)
    public String list(HttpRequest<?> request) {
        return ApiJson.write(database.query(c -> ApiKeys.of(c, callerOf(request).userId())));
    }

    @Delete("/{id}")
    public HttpResponse<Void> revoke(String id, HttpRequest<?> request) {
        Caller caller = callerOf(request);
        Instant now = clock.instant();
        boolean revoked = database.query(c -> AccountEvents.ifChanged(c, ApiKeys.revoke(c, caller.userId(), id, now),
                now, AccountEvents.API_KEY_REVOKED, caller.userId(), addressOf(request), Map.of("keyId", id)));
        if (!revoked) {
            throw ApiException.notFound("no API key " + id);
        }
        authenticator.forgetUser(caller.userId());
        return HttpResponse.noContent();
    }
}
