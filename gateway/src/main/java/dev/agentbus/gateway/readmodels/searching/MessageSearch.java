package dev.agentbus.gateway.readmodels.searching;

import dev.agentbus.gateway.readmodels.Sql;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Full-text search over one user's messages. The query is read by {@code websearch_to_tsquery}, so people can write
 * what they would type into a search box: words, {@code "a phrase"}, {@code or}, {@code -word}. Matches are ranked
 * by {@code ts_rank}, newest first among equals; the snippet marks matched words with {@code **}.
 */
public final class MessageSearch {
    /** One message that matches. */
    public record Hit(String sessionId, String title, long seq, String role, Instant time, String snippet,
                      double rank) {
    }

    /** People's query syntax: all words, "phrases", or, -exclusions. */
    private static final String AS_WRITTEN = "websearch_to_tsquery('english', ?)";
    /**
     * Any of the query's words (stemmed, stop words dropped), for hybrid search: its full-text list is one of two
     * that are fused, so it should propose every message that shares a word and let the fusion rank them. Requiring
     * all words, as typed questions rarely match, left hybrid with almost no full-text hits (docs/benchmarks.md).
     */
    private static final String ANY_WORD = "replace(plainto_tsquery('english', ?)::text, ' & ', ' | ')::tsquery";

    private static final String SQL = """
            SELECT m.session_id, s.title, m.seq, m.role, m.time,
                   ts_headline('english', m.text, q,
                               'StartSel="**", StopSel="**", MaxWords=30, MinWords=8, MaxFragments=2,
                                FragmentDelimiter=" … "') AS snippet,
                   ts_rank(m.document, q) AS rank
              FROM messages m
             CROSS JOIN (SELECT %s AS q) AS t
              LEFT JOIN sessions s ON s.session_id = m.session_id
             WHERE m.user_id = ? AND m.document @@ q
             ORDER BY rank DESC, m.time DESC, m.session_id, m.seq
             LIMIT ?""";

    private MessageSearch() {
    }

    public static List<Hit> search(Connection db, String userId, String query, int limit) throws SQLException {
        return search(db, userId, query, limit, AS_WRITTEN);
    }

    /** The messages that contain any of the query's words, those with more (and rarer) of them first. */
    public static List<Hit> searchAnyWord(Connection db, String userId, String query, int limit) throws SQLException {
        return search(db, userId, query, limit, ANY_WORD);
    }

    private static List<Hit> search(Connection db, String userId, String query, int limit, String tsquery)
            throws SQLException {
        try (PreparedStatement s = db.prepareStatement(SQL.formatted(tsquery))) {
            s.setString(1, query);
            s.setString(2, userId);
            s.setInt(3, limit);
            List<Hit> hits = new ArrayList<>();
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    hits.add(new Hit(rs.getString("session_id"), rs.getString("title"), rs.getLong("seq"),
                            rs.getString("role"), Sql.getInstant(rs, "time"), rs.getString("snippet"),
                            rs.getDouble("rank")));
                }
            }
            return hits;
        }
    }
}
