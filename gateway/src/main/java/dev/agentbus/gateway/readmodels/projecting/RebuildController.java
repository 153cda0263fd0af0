package dev.agentbus.gateway.readmodels.projecting;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.agentbus.events.Json;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.Post;
import io.micronaut.http.annotation.Produces;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;

/**
 * {@code POST /api/v1/admin/rebuild-projections} empties the read models and has the projector rebuild them from
 * offset 0 with today's code (202 at once); {@code GET} on the same path tells how far the latest run is.
 * There is one token per gateway for now, so whoever holds it may rebuild.
 */
@Controller("/api/v1/admin/rebuild-projections")
@ExecuteOn(TaskExecutors.BLOCKING)
class RebuildController {
    private final Projector projector;

    public RebuildController(Projector projector) {
        this.projector = projector;
    }

    @Post
    @Produces(MediaType.APPLICATION_JSON)
    public HttpResponse<String> rebuild() throws JsonProcessingException {
        return HttpResponse.accepted().body(Json.mapper().writeValueAsString(projector.rebuild()));
    }

    @Get
    @Produces(MediaType.APPLICATION_JSON)
    public String status() throws JsonProcessingException {
        return Json.mapper().writeValueAsString(projector.status());
    }
}
