package dev.agentbus.gateway.accounts.groups;

import dev.agentbus.api.ApiJson;
import dev.agentbus.api.accounts.Share;
import dev.agentbus.gateway.accounts.auditing.AccountEvents;
import dev.agentbus.gateway.errors.ApiException;
import dev.agentbus.gateway.readmodels.ReadModelDatabase;
import dev.agentbus.gateway.sessions.SessionAccess;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Consumes;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Delete;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.Produces;
import io.micronaut.http.annotation.Put;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;

import java.time.Clock;
import java.time.Instant;
import java.util.Map;

import static dev.agentbus.gateway.auth.Callers.addressOf;
import static dev.agentbus.gateway.auth.Callers.userOf;

/**
 * A session's owner shares it with a group: {@code GET /api/v1/sessions/{id}/shares},
 * {@code PUT /api/v1/sessions/{id}/shares/{groupId}} with {@code {"mode":"read"|"write"}}, and {@code DELETE}.
 * Only the owner may (a member with write access may not pass the session on), and only with a group the owner
 * belongs to ({@link Groups#access} checks that again on every read, for shares made before this rule).
 */
@Controller("/api/v1/sessions/{id}/shares")
@ExecuteOn(TaskExecutors.BLOCKING)
class SharesController {
    static final String NOT_YOUR_GROUP = "no such group among yours: a session is shared only with a group its owner "
            + "belongs to";

    private final ReadModelDatabase database;
    private final SessionAccess sessions;
    private final Clock clock = Clock.systemUTC();

    SharesController(ReadModelDatabase database, SessionAccess sessions) {
        this.database = database;
        this.sessions = sessions;
    }

    public record ShareRequest(@Nullable String mode) {
    }

    @Get
    @Produces(MediaType.APPLICATION_JSON)
    public String list(String id, HttpRequest<?> request) {
        sessions.owned(id, request);
        return ApiJson.write(database.query(c -> Groups.sharesOf(c, id)));
    }

    @Put("/{groupId}")
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public String share(String id, String groupId, @Body @Nullable ShareRequest body, HttpRequest<?> request) {
        sessions.owned(id, request);
        Groups.Mode mode;
        try {
            mode = Groups.Mode.parse(body == null ? null : body.mode());
        } catch (IllegalArgumentException e) {
            throw ApiException.badRequest(e.getMessage());
        }
        Instant now = clock.instant();
        String user = userOf(request);
        database.query(c -> {
            // One answer for a group that does not exist and one the owner is not in (not even the id echoed), so
            // the route tells nobody which groups exist, and a share reaches only people the owner already works with.
            if (!Groups.isMember(c, groupId, user)) {
                throw ApiException.notFound(NOT_YOUR_GROUP);
            }
            Groups.share(c, id, groupId, mode, user, now);
            AccountEvents.append(c, now, AccountEvents.SESSION_SHARED, user, user, addressOf(request),
                    Map.of("sessionId", id, "group", groupId, "mode", mode.wireName()));
            return null;
        });
        return ApiJson.write(new Share(id, groupId, mode.wireName(), user, now));
    }

    @Delete("/{groupId}")
    public HttpResponse<Void> unshare(String id, String groupId, HttpRequest<?> request) {
        sessions.owned(id, request);
        Instant now = clock.instant();
        String user = userOf(request);
        database.query(c -> {
            if (!Groups.unshare(c, id, groupId)) {
                throw ApiException.notFound("session " + id + " is not shared with " + groupId);
            }
            AccountEvents.append(c, now, AccountEvents.SESSION_SHARED, user, user, addressOf(request),
                    Map.of("sessionId", id, "group", groupId, "mode", "none"));
            return null;
        });
        return HttpResponse.noContent();
    }
}
