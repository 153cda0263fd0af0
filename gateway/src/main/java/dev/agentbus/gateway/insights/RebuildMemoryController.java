package dev.agentbus.gateway.insights;

import dev.agentbus.api.ApiJson;
import dev.agentbus.api.insights.MemoryRebuildStatus;
import dev.agentbus.gateway.errors.ApiException;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.PathVariable;
import io.micronaut.http.annotation.Post;
import io.micronaut.http.annotation.Produces;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;

import java.util.Map;

import static dev.agentbus.gateway.auth.Callers.userOf;

/**
 * {@code POST /api/v1/admin/rebuild-memory {"user": "U"}} (user absent: every user) has the memory-service rebuild
 * insights from the whole session log with today's extraction, answered 202 at once with the rebuild's id;
 * {@code GET /api/v1/admin/rebuild-memory/{rebuildId}} lists the users whose insights it replaced so far. Admins
 * only, as every {@code /api/v1/admin/} route (the authentication filter refuses others). docs/memory.md#rebuild.
 */
@Controller("/api/v1/admin/rebuild-memory")
@ExecuteOn(TaskExecutors.BLOCKING)
class RebuildMemoryController {
    private final UserInsights insights;

    RebuildMemoryController(UserInsights insights) {
        this.insights = insights;
    }

    public record RebuildRequest(@Nullable String user) {
    }

    @Post
    @Produces(MediaType.APPLICATION_JSON)
    public HttpResponse<String> rebuild(@Body @Nullable RebuildRequest body, HttpRequest<?> request) {
        String user = body == null || body.user() == null || body.user().isBlank() ? null : body.user().strip();
        if (user != null && user.equals("*")) {
            throw ApiException.badRequest("user must be a user id; leave it out to rebuild every user");
        }
        String id = insights.requestRebuild(user, userOf(request));
        return HttpResponse.accepted().body(ApiJson.write(new MemoryRebuildStatus(id, user, Map.of())));
    }

    @Get("/{rebuildId}")
    @Produces(MediaType.APPLICATION_JSON)
    public String status(@PathVariable String rebuildId) {
        return ApiJson.write(new MemoryRebuildStatus(rebuildId, null, insights.rebuilt(rebuildId)));
    }
}
