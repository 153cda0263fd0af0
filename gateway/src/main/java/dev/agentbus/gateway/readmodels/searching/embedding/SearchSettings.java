package dev.agentbus.gateway.readmodels.searching.embedding;

import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.core.bind.annotation.Bindable;

import java.time.Duration;

/**
 * Semantic search: {@code agentbus.search.*} (environment: {@code AGENTBUS_SEARCH_EMBEDDING_MODEL}, {@code
 * ..._EMBEDDING_BATCH}, {@code ..._EMBEDDING_TIMEOUT}, {@code ..._MAX_EMBEDDED_CHARS}). The embeddings come from the
 * team's model server ({@code llm.url}, {@code llm.api-key}). Checked when the gateway starts; see
 * docs/configuration.md.
 *
 * @param embeddingModel   the model asked for embeddings ({@code POST <llm.url>/embeddings}); blank: no semantic
 *                         search, nothing is embedded, and search is full-text only
 * @param embeddingBatch   how many messages go into one embeddings request
 * @param embeddingTimeout how long one embeddings request may take (a search waits for its query's)
 * @param maxEmbeddedChars a message longer than this is embedded by its beginning: embedding models have a context
 *                         of their own (often 512 or 8192 tokens) and refuse, or silently cut, longer inputs
 */
@ConfigurationProperties("agentbus.search")
record SearchSettings(
        @Bindable(defaultValue = "") String embeddingModel,
        @Bindable(defaultValue = "32") int embeddingBatch,
        @Bindable(defaultValue = "30s") Duration embeddingTimeout,
        @Bindable(defaultValue = "2000") int maxEmbeddedChars) {

    public SearchSettings {
        embeddingModel = embeddingModel == null ? "" : embeddingModel.strip();
        if (embeddingBatch < 1 || embeddingBatch > 2048) {
            throw new IllegalArgumentException("agentbus.search.embedding-batch must be between 1 and 2048, not "
                    + embeddingBatch);
        }
        if (embeddingTimeout == null || embeddingTimeout.isNegative() || embeddingTimeout.isZero()) {
            throw new IllegalArgumentException("agentbus.search.embedding-timeout must be positive, not "
                    + embeddingTimeout);
        }
        if (maxEmbeddedChars < 1) {
            throw new IllegalArgumentException("agentbus.search.max-embedded-chars must be at least 1, not "
                    + maxEmbeddedChars);
        }
    }

    /** Whether semantic search is on: an embedding model is named. */
    public boolean semantic() {
        return !embeddingModel.isBlank();
    }
}
