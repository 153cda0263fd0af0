package dev.agentbus.api;

import java.time.Instant;
import java.util.List;

/**
 * {@code GET /api/v1/search}: the caller's messages that match {@code query}, best first.
 *
 * @param query   the query as searched (trimmed)
 * @param mode    how it was searched: {@code text} (full-text), {@code semantic} (embeddings) or {@code hybrid}
 * @param results the matching messages
 */
public record SearchResults(String query, String mode, List<Hit> results) {

    /**
     * One matching message.
     *
     * @param snippet for a full-text match, the matched passages with the query's words marked {@code **like
     *                this**}; for a match by meaning only, the message's beginning (240 characters at most)
     * @param rank    what ordered the list: {@code ts_rank} in text mode, cosine similarity (-1 … 1) in semantic
     *                mode, the reciprocal-rank-fusion score in hybrid mode. Compare ranks within one answer only.
     */
    public record Hit(String sessionId, String title, long seq, String role, Instant time, String snippet,
                      double rank) {
    }
}
