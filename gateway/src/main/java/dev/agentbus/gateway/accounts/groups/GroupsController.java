package dev.agentbus.gateway.accounts.groups;

import dev.agentbus.api.ApiJson;
import dev.agentbus.gateway.accounts.auditing.AccountEvents;
import dev.agentbus.gateway.accounts.users.Accounts;
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

import java.time.Clock;
import java.time.Instant;
import java.util.Map;

import static dev.agentbus.gateway.auth.Callers.addressOf;
import static dev.agentbus.gateway.auth.Callers.userOf;

/**
 * Groups (admins only: the filter checks): {@code POST/GET /api/v1/admin/groups},
 * {@code DELETE /api/v1/admin/groups/{groupId}}, and members with {@code PUT/DELETE
 * /api/v1/admin/groups/{groupId}/members/{userId}}. Sessions are shared with groups by their owners
 * ({@link SharesController}).
 */
@Controller("/api/v1/admin/groups")
@ExecuteOn(TaskExecutors.BLOCKING)
class GroupsController {
    private final ReadModelDatabase database;
    private final Clock clock = Clock.systemUTC();

    GroupsController(ReadModelDatabase database) {
        this.database = database;
    }

    public record NewGroup(@Nullable String groupId) {
    }

    @Post
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public HttpResponse<String> create(@Body @Nullable NewGroup body, HttpRequest<?> request) {
        String id = body == null || body.groupId() == null ? "" : body.groupId().strip().toLowerCase();
        if (!Groups.GROUP_ID.matcher(id).matches()) {
            throw ApiException.badRequest("groupId must be 1 to 64 lowercase letters, digits, '.', '_' or '-'");
        }
        Instant now = clock.instant();
        database.query(c -> {
            if (!Groups.create(c, id, userOf(request), now)) {
                throw new ApiException(HttpStatus.CONFLICT, "the group " + id + " exists");
            }
            AccountEvents.append(c, now, AccountEvents.GROUP_CHANGED, null, userOf(request), addressOf(request),
                    Map.of("group", id, "change", "created"));
            return null;
        });
        return HttpResponse.created(ApiJson.write(new dev.agentbus.api.accounts.Group(id, java.util.List.of())));
    }

    @Get
    @Produces(MediaType.APPLICATION_JSON)
    public String list() {
        return ApiJson.write(database.query(Groups::all));
    }

    @Delete("/{groupId}")
    public HttpResponse<Void> delete(String groupId, HttpRequest<?> request) {
        change(groupId, null, "deleted", request);
        return HttpResponse.noContent();
    }

    @Put("/{groupId}/members/{userId}")
    public HttpResponse<Void> addMember(String groupId, String userId, HttpRequest<?> request) {
        change(groupId, userId, "member added", request);
        return HttpResponse.noContent();
    }

    @Delete("/{groupId}/members/{userId}")
    public HttpResponse<Void> removeMember(String groupId, String userId, HttpRequest<?> request) {
        change(groupId, userId, "member removed", request);
        return HttpResponse.noContent();
    }

    private void change(String groupId, String userId, String change, HttpRequest<?> request) {
        Instant now = clock.instant();
        database.query(c -> {
            if (!Groups.exists(c, groupId)) {
                throw ApiException.notFound("no group " + groupId);
            }
            if (userId != null && Accounts.byId(c, userId).isEmpty()) {
                throw ApiException.notFound("no user " + userId);
            }
            switch (change) {
                case "deleted" -> Groups.delete(c, groupId);
                case "member added" -> Groups.addMember(c, groupId, userId);
                default -> {
                    if (!Groups.removeMember(c, groupId, userId)) {
                        throw ApiException.notFound(userId + " is not in " + groupId);
                    }
                }
            }
            AccountEvents.append(c, now, AccountEvents.GROUP_CHANGED, userId, userOf(request), addressOf(request),
                    Map.of("group", groupId, "change", change));
            return null;
        });
    }
}
