package dev.agentbus.gateway.accounts.registering;

import dev.agentbus.api.ApiJson;
import dev.agentbus.api.accounts.User;
import dev.agentbus.gateway.accounts.auditing.AccountEvents;
import dev.agentbus.gateway.accounts.credentials.SecretTokens;
import dev.agentbus.gateway.accounts.users.Accounts;
import dev.agentbus.gateway.accounts.users.Passwords;
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
import java.time.Instant;
import java.util.List;
import java.util.Map;

import static dev.agentbus.gateway.auth.Callers.addressOf;

/**
 * {@code POST /api/v1/auth/register}: sign-up with an invite. The invite is taken and the account made in one
 * transaction, so a refused registration (a taken username, say) leaves the invite usable.
 */
@Controller("/api/v1/auth/register")
@ExecuteOn(TaskExecutors.BLOCKING)
class RegisterController {
    private final ReadModelDatabase database;
    private final Passwords passwords;
    private final Clock clock = Clock.systemUTC();

    RegisterController(ReadModelDatabase database, Passwords passwords) {
        this.database = database;
        this.passwords = passwords;
    }

    public record Registration(@Nullable String invite, @Nullable String username, @Nullable String password) {
    }

    @Post
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public HttpResponse<String> register(@Body @Nullable Registration body, HttpRequest<?> request) {
        if (body == null || body.invite() == null || body.invite().isBlank()) {
            throw ApiException.badRequest("invite is required: ask an admin for one");
        }
        String username = Accounts.normalize(body.username());
        if (!Accounts.USERNAME.matcher(username).matches()) {
            throw ApiException.badRequest("username must be 1 to 64 lowercase letters, digits, '.', '_' or '-', "
                    + "starting with a letter or digit");
        }
        String hash = passwords.hashNew(body.password(), username);
        Instant now = clock.instant();
        User created = database.query(c -> {
            Invites.Taken taken = Invites.take(c, SecretTokens.sha256Hex(body.invite().strip()), username, now);
            if (taken instanceof Invites.Taken.Refused refused) {
                throw ApiException.badRequest(refused.reason());
            }
            var role = ((Invites.Taken.Granted) taken).role();
            if (!Accounts.insert(c, username, username, role, hash, now)) {
                throw new ApiException(HttpStatus.CONFLICT, "the username " + username + " is taken");
            }
            AccountEvents.append(c, now, AccountEvents.REGISTERED, username, username, addressOf(request),
                    Map.of("role", role.wireName()));
            return new User(username, username, role.wireName(), false, now, List.of());
        });
        return HttpResponse.created(ApiJson.write(created));
    }
}
