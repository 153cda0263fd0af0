package dev.agentbus.gateway.readmodels.searching.embedding;

import dev.agentbus.eventbus.KafkaSettings;
import dev.agentbus.gateway.accounts.modelserver.TeamModelServer;
import dev.agentbus.gateway.errors.ApiException;
import dev.agentbus.gateway.readmodels.ReadModelDatabase;
import io.micronaut.context.annotation.Context;
import io.micronaut.http.HttpStatus;
import jakarta.annotation.PreDestroy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Semantic search's moving parts, present only when it is on ({@link SearchSettings#semantic()}) and there is a
 * read-model database: the background {@link MessageEmbedder}, and the client that embeds each search's query.
 * Both use the team's model server ({@code llm.url}), never a user's own: the index is one per installation, and a
 * query must be embedded by the model its messages were.
 */
@Context
public final class Embeddings implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Embeddings.class);

    private final SearchSettings settings;
    private final EmbeddingClient queries;
    private final MessageEmbedder embedder;

    Embeddings(SearchSettings settings, TeamModelServer server, ReadModelDatabase database, KafkaSettings kafka) {
        this.settings = settings;
        if (!settings.semantic()) {
            LOG.info("search: no embedding model (agentbus.search.embedding-model); search is full-text only");
            queries = null;
            embedder = null;
            return;
        }
        queries = new EmbeddingClient(server.url(), server.apiKey(), settings.embeddingModel(),
                settings.embeddingTimeout());
        embedder = database.configured() ? new MessageEmbedder(database, kafka, new EmbeddingClient(server.url(),
                server.apiKey(), settings.embeddingModel(), settings.embeddingTimeout()), settings).start() : null;
    }

    public boolean on() {
        return queries != null;
    }

    /** The embedding model whose vectors a search compares. */
    public String model() {
        return settings.embeddingModel();
    }

    /** The query's vector; 502 or 504 with the reason when the model server cannot give it. */
    public float[] embedQuery(String query) {
        if (queries == null) {
            throw new IllegalStateException("semantic search is off");
        }
        try {
            return queries.embed(java.util.List.of(query)).getFirst();
        } catch (EmbeddingClient.EmbeddingException e) {
            HttpStatus status = e.getMessage().contains("timed out") ? HttpStatus.GATEWAY_TIMEOUT
                    : HttpStatus.BAD_GATEWAY;
            throw new ApiException(status, "could not embed the query: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ApiException(HttpStatus.SERVICE_UNAVAILABLE, "interrupted while embedding the query");
        }
    }

    @PreDestroy
    @Override
    public void close() {
        if (embedder != null) {
            embedder.close();
        }
        if (queries != null) {
            queries.close();
        }
    }
}
