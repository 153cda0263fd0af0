package dev.agentbus.gateway.readmodels.searching.embedding;

import dev.agentbus.gateway.readmodels.Sql;
import dev.agentbus.gateway.readmodels.searching.ranking.NearestVectors.Candidate;
import dev.agentbus.gateway.readmodels.searching.ranking.Vectors;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** The {@code message_embeddings} table: one normalised vector per message and embedding model. */
public final class MessageVectors {
    /** A message's key in the index: its session and seq. */
    public record Key(String sessionId, long seq) {
    }

    /** A vector to store. */
    public record Stored(Key key, String userId, float[] vector) {
    }

    private MessageVectors() {
    }

    /** Which of {@code keys} have a vector of {@code model} already: what a replay need not embed again. */
    public static Set<Key> existing(Connection db, String model, Collection<Key> keys) throws SQLException {
        Set<Key> found = new HashSet<>();
        if (keys.isEmpty()) {
            return found;
        }
        try (PreparedStatement s = db.prepareStatement("SELECT e.session_id, e.seq FROM message_embeddings e "
                + "JOIN unnest(?::text[], ?::bigint[]) AS k(session_id, seq) USING (session_id, seq) "
                + "WHERE e.model = ?")) {
            s.setArray(1, db.createArrayOf("text", keys.stream().map(k -> Sql.clean(k.sessionId())).toArray()));
            s.setArray(2, db.createArrayOf("bigint", keys.stream().map(Key::seq).toArray()));
            s.setString(3, model);
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    found.add(new Key(rs.getString(1), rs.getLong(2)));
                }
            }
        }
        return found;
    }

    /** Adds vectors; one that is there already stays as it is, so a replayed record changes nothing. */
    public static void insert(Connection db, String model, List<Stored> vectors) throws SQLException {
        if (vectors.isEmpty()) {
            return;
        }
        try (PreparedStatement s = db.prepareStatement("INSERT INTO message_embeddings (session_id, seq, model, "
                + "user_id, vector) VALUES (?, ?, ?, ?, ?) ON CONFLICT (session_id, seq, model) DO NOTHING")) {
            for (Stored v : vectors) {
                Sql.setText(s, 1, v.key().sessionId());
                s.setLong(2, v.key().seq());
                s.setString(3, model);
                Sql.setText(s, 4, v.userId());
                s.setBytes(5, Vectors.toBytes(v.vector()));
                s.addBatch();
            }
            s.executeBatch();
        }
    }

    /**
     * Removes every vector, of every model, of these sessions, and remembers that they are deleted ({@link
     * #deletedAmong}).
     */
    public static void deleteSessions(Connection db, Collection<String> sessionIds) throws SQLException {
        if (sessionIds.isEmpty()) {
            return;
        }
        Object[] ids = sessionIds.stream().map(Sql::clean).toArray();
        try (PreparedStatement s = db.prepareStatement("DELETE FROM message_embeddings WHERE session_id = ANY (?)")) {
            s.setArray(1, db.createArrayOf("text", ids));
            s.executeUpdate();
        }
        try (PreparedStatement s = db.prepareStatement("INSERT INTO embedding_deleted_sessions (session_id) "
                + "SELECT unnest(?::text[]) ON CONFLICT DO NOTHING")) {
            s.setArray(1, db.createArrayOf("text", ids));
            s.executeUpdate();
        }
    }

    /** Which of these sessions were deleted: their messages are never embedded again. */
    public static Set<String> deletedAmong(Connection db, Collection<String> sessionIds) throws SQLException {
        Set<String> found = new HashSet<>();
        if (sessionIds.isEmpty()) {
            return found;
        }
        try (PreparedStatement s = db.prepareStatement(
                "SELECT session_id FROM embedding_deleted_sessions WHERE session_id = ANY (?)")) {
            s.setArray(1, db.createArrayOf("text", sessionIds.stream().map(Sql::clean).toArray()));
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    found.add(rs.getString(1));
                }
            }
        }
        return found;
    }

    /**
     * Every vector of one user and model: the candidates of a brute-force search. Read in one pass with a fetch
     * size, so a large set streams instead of arriving as one result in memory twice.
     */
    public static List<Candidate<Key>> ofUser(Connection db, String userId, String model) throws SQLException {
        List<Candidate<Key>> out = new ArrayList<>();
        try (PreparedStatement s = db.prepareStatement(
                "SELECT session_id, seq, vector FROM message_embeddings WHERE user_id = ? AND model = ?")) {
            s.setString(1, userId);
            s.setString(2, model);
            s.setFetchSize(2000);
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    out.add(new Candidate<>(new Key(rs.getString(1), rs.getLong(2)),
                            Vectors.fromBytes(rs.getBytes(3))));
                }
            }
        }
        return out;
    }
}
