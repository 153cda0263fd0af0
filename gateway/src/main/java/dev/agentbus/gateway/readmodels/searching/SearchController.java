package dev.agentbus.gateway.readmodels.searching;

import dev.agentbus.api.ApiJson;
import dev.agentbus.api.SearchResults;
import dev.agentbus.gateway.errors.ApiException;
import dev.agentbus.gateway.readmodels.Params;
import dev.agentbus.gateway.readmodels.ReadModelDatabase;
import dev.agentbus.gateway.readmodels.searching.embedding.Embeddings;
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

/**
 * {@code GET /api/v1/search?q=…&mode=text|semantic|hybrid}: search over the caller's own messages, by words
 * (full-text), by meaning (embeddings) or both fused (docs/read-models.md#search, docs/memory.md#semantic-search).
 * Every mode reads only rows whose {@code user_id} is the caller's.
 */
@Controller("/api/v1/search")
@ExecuteOn(TaskExecutors.BLOCKING)
class SearchController {
    static final int MAX_QUERY_CHARS = 500;

    private final ReadModelDatabase database;
    private final Embeddings embeddings;

    public SearchController(ReadModelDatabase database, Embeddings embeddings) {
        this.database = database;
        this.embeddings = embeddings;
    }

    @Get
    @Produces(MediaType.APPLICATION_JSON)
    public String search(@Nullable @QueryValue String q, @Nullable @QueryValue Integer limit,
                         @Nullable @QueryValue String mode, HttpRequest<?> request) {
        if (q == null || q.isBlank()) {
            throw ApiException.badRequest("q is required: the words to search for");
        }
        if (q.length() > MAX_QUERY_CHARS) {
            throw ApiException.badRequest("q is longer than " + MAX_QUERY_CHARS + " characters");
        }
        SearchMode how = SearchMode.of(mode, embeddings.on());
        int max = Params.limit(limit, 20, 100);
        String user = userOf(request);
        String query = q.strip();
        database.requireConfigured();
        // The query is embedded before a database connection is taken: the model server may take a while.
        float[] vector = how == SearchMode.TEXT ? null : embeddings.embedQuery(query);
        List<MessageSearch.Hit> hits = database.query(db -> switch (how) {
            case TEXT -> MessageSearch.search(db, user, query, max);
            case SEMANTIC -> SemanticSearch.semantic(db, user, embeddings.model(), vector, max);
            case HYBRID -> {
                int depth = SemanticSearch.hybridDepth(max);
                yield SemanticSearch.hybrid(MessageSearch.searchAnyWord(db, user, query, depth),
                        SemanticSearch.semantic(db, user, embeddings.model(), vector, depth), max);
            }
        });
        return ApiJson.write(new SearchResults(query, how.wire(), hits.stream().map(h -> new SearchResults.Hit(
                h.sessionId(), h.title(), h.seq(), h.role(), h.time(), h.snippet(), h.rank())).toList()));
    }
}
