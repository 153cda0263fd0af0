package dev.agentbus.gateway.readmodels.searching;

import dev.agentbus.gateway.readmodels.Sql;
import dev.agentbus.gateway.readmodels.searching.embedding.MessageVectors;
import dev.agentbus.gateway.readmodels.searching.embedding.MessageVectors.Key;
import dev.agentbus.gateway.readmodels.searching.ranking.NearestVectors;
import dev.agentbus.gateway.readmodels.searching.ranking.RankFusion;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Search by meaning over one user's messages, and hybrid search. Semantic: the user's vectors of the configured
 * model are compared with the query's by brute force ({@link NearestVectors}; docs/memory.md has the measurements
 * behind that choice), and the nearest are looked up in the {@code messages} table. That lookup is also the guard
 * that a deleted session's message is never found: its row is gone from {@code messages} as soon as the read-model
 * projector has read the deletion, whether or not the embedder has. Hybrid: the full-text and the semantic list
 * fused by {@link RankFusion}.
 */
public final class SemanticSearch {
    /** A message's text in a semantic hit is cut to this many characters (full-text hits have ts_headline's). */
    static final int SNIPPET_CHARS = 240;
    /** How many of each list hybrid search fuses, at least: more than a page, so a second-list hit can rise. */
    static final int HYBRID_DEPTH = 50;

    private SemanticSearch() {
    }

    /** The {@code limit} messages of {@code userId} nearest to the (normalised) query vector, best first. */
    public static List<MessageSearch.Hit> semantic(Connection db, String userId, String model, float[] query,
                                                   int limit) throws SQLException {
        List<NearestVectors.Candidate<Key>> candidates = MessageVectors.ofUser(db, userId, model);
        // A few more than asked: some may belong to a session deleted since, and drop out in the lookup.
        List<NearestVectors.Scored<Key>> nearest = NearestVectors.top(query, candidates, limit + 10, 0);
        Map<Key, MessageSearch.Hit> found = details(db, userId, nearest.stream().map(NearestVectors.Scored::key)
                .toList());
        List<MessageSearch.Hit> hits = new ArrayList<>();
        for (NearestVectors.Scored<Key> s : nearest) {
            MessageSearch.Hit h = found.get(s.key());
            if (h != null && hits.size() < limit) {
                hits.add(withRank(h, s.similarity()));
            }
        }
        return hits;
    }

    /**
     * Full-text and semantic hits fused by reciprocal rank, best first. A message in both lists keeps its full-text
     * hit (whose snippet marks the matched words); the rank becomes the fused score.
     */
    public static List<MessageSearch.Hit> hybrid(List<MessageSearch.Hit> text, List<MessageSearch.Hit> semantic,
                                                 int limit) {
        Map<Key, MessageSearch.Hit> byKey = new LinkedHashMap<>();
        semantic.forEach(h -> byKey.put(key(h), h));
        text.forEach(h -> byKey.put(key(h), h));
        List<RankFusion.Fused<Key>> fused = RankFusion.fuse(text.stream().map(SemanticSearch::key).toList(),
                semantic.stream().map(SemanticSearch::key).toList());
        return fused.stream().limit(limit).map(f -> withRank(byKey.get(f.item()), f.score())).toList();
    }

    /** How deep each list must go for a hybrid page of {@code limit}. */
    public static int hybridDepth(int limit) {
        return Math.max(limit, HYBRID_DEPTH);
    }

    private static Key key(MessageSearch.Hit h) {
        return new Key(h.sessionId(), h.seq());
    }

    private static MessageSearch.Hit withRank(MessageSearch.Hit h, double rank) {
        return new MessageSearch.Hit(h.sessionId(), h.title(), h.seq(), h.role(), h.time(), h.snippet(), rank);
    }

    /** The messages behind these keys that still exist and are the user's, with their session's title. */
    private static Map<Key, MessageSearch.Hit> details(Connection db, String userId, List<Key> keys)
            throws SQLException {
        Map<Key, MessageSearch.Hit> out = new HashMap<>();
        if (keys.isEmpty()) {
            return out;
        }
        try (PreparedStatement s = db.prepareStatement("""
                SELECT m.session_id, s.title, m.seq, m.role, m.time, m.text
                  FROM messages m
                  JOIN unnest(?::text[], ?::bigint[]) AS k(session_id, seq) USING (session_id, seq)
                  LEFT JOIN sessions s ON s.session_id = m.session_id
                 WHERE m.user_id = ?""")) {
            s.setArray(1, db.createArrayOf("text", keys.stream().map(k -> Sql.clean(k.sessionId())).toArray()));
            s.setArray(2, db.createArrayOf("bigint", keys.stream().map(Key::seq).toArray()));
            s.setString(3, userId);
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    MessageSearch.Hit h = new MessageSearch.Hit(rs.getString("session_id"), rs.getString("title"),
                            rs.getLong("seq"), rs.getString("role"), Sql.getInstant(rs, "time"),
                            Sql.cut(rs.getString("text"), SNIPPET_CHARS), 0);
                    out.put(key(h), h);
                }
            }
        }
        return out;
    }
}
