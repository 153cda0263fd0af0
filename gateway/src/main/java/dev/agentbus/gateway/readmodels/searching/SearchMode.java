package dev.agentbus.gateway.readmodels.searching;

import dev.agentbus.gateway.errors.ApiException;

import java.util.Locale;

/** How {@code GET /api/v1/search} finds messages: by their words, by meaning, or both fused. */
enum SearchMode {
    /** PostgreSQL full-text search ({@link MessageSearch}). */
    TEXT,
    /** Nearest embeddings by cosine similarity ({@link SemanticSearch}). */
    SEMANTIC,
    /** Both lists, fused by reciprocal rank ({@link SemanticSearch#hybrid}). */
    HYBRID;

    /**
     * The mode a request asks for. None given: hybrid when semantic search is on, else text, so a client that never
     * heard of modes gets the best there is. A mode that needs embeddings when none are configured is the client's
     * error (400), saying what to do instead: silently searching words would look like a search by meaning that
     * found nothing.
     */
    public static SearchMode of(String raw, boolean semanticOn) {
        if (raw == null || raw.isBlank()) {
            return semanticOn ? HYBRID : TEXT;
        }
        SearchMode mode = switch (raw.strip().toLowerCase(Locale.ROOT)) {
            case "text" -> TEXT;
            case "semantic" -> SEMANTIC;
            case "hybrid" -> HYBRID;
            default -> throw ApiException.badRequest("mode must be text, semantic or hybrid, not '" + cut(raw) + "'");
        };
        if (mode != TEXT && !semanticOn) {
            throw ApiException.badRequest("mode=" + mode.wire() + " needs an embedding model, and this installation "
                    + "has none (agentbus.search.embedding-model); mode=text searches by words");
        }
        return mode;
    }

    public String wire() {
        return name().toLowerCase(Locale.ROOT);
    }

    private static String cut(String s) {
        return s.length() > 40 ? s.substring(0, 40) + "…" : s;
    }
}
