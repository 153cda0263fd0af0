package dev.agentbus.gateway.readmodels.searching;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentbus.events.Json;
import dev.agentbus.gateway.errors.ApiException;
import dev.agentbus.gateway.readmodels.Params;
import dev.agentbus.gateway.readmodels.ReadModelDatabase;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.Produces;
import io.micronaut.http.annotation.QueryValue;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;

import java.util.List;

import static dev.agentbus.gateway.auth.Callers.userOf;

/** {@code GET /api/v1/search?q=…}: full-text search over the caller's own messages (docs/read-models.md). */
@Controller("/api/v1/search")
@ExecuteOn(TaskExecutors.BLOCKING)
class SearchController {
    static final int MAX_QUERY_CHARS = 500;

    private final ReadModelDatabase database;

    public SearchController(ReadModelDatabase database) {
        this.database = database;
    }

    @Get
    @Produces(MediaType.APPLICATION_JSON)
    public String search(@Nullable @QueryValue String q, @Nullable @QueryValue Integer limit, HttpRequest<?> request)
            throws JsonProcessingException {
        if (q == null || q.isBlank()) {
            throw ApiException.badRequest("q is required: the words to search for");
        }
        if (q.length() > MAX_QUERY_CHARS) {
            throw ApiException.badRequest("q is longer than " + MAX_QUERY_CHARS + " characters");
        }
        int max = Params.limit(limit, 20, 100);
        String user = userOf(request);
        List<MessageSearch.Hit> hits = database.query(db -> MessageSearch.search(db, user, q.strip(), max));
        ObjectNode body = Json.mapper().createObjectNode();
        body.put("query", q.strip());
        body.set("results", Json.mapper().valueToTree(hits));
        return Json.mapper().writeValueAsString(body);
    }
}
