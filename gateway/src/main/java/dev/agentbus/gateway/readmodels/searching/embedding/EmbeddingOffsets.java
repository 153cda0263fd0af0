package dev.agentbus.gateway.readmodels.searching.embedding;

import dev.agentbus.events.topics.Topics;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.Map;

/**
 * The {@code embedding_offsets} table: per embedding model and partition of the session log, the offset of the next
 * record the embedder reads. A partition without a row starts at 0, and so does every new model.
 */
final class EmbeddingOffsets {
    static final String TOPIC = Topics.SESSION_EVENTS.name();

    private EmbeddingOffsets() {
    }

    /** Serialises the replicas' writes: under it, each record's vectors are written by exactly one of them. */
    static void lock(Connection db) throws SQLException {
        try (Statement s = db.createStatement()) {
            s.execute("LOCK TABLE embedding_offsets IN EXCLUSIVE MODE");
        }
    }

    static Map<Integer, Long> read(Connection db, String model) throws SQLException {
        Map<Integer, Long> next = new HashMap<>();
        try (PreparedStatement s = db.prepareStatement(
                "SELECT partition, next_offset FROM embedding_offsets WHERE model = ?")) {
            s.setString(1, model);
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    next.put(rs.getInt(1), rs.getLong(2));
                }
            }
        }
        return next;
    }

    static void write(Connection db, String model, Map<Integer, Long> next) throws SQLException {
        try (PreparedStatement s = db.prepareStatement("INSERT INTO embedding_offsets (model, partition, next_offset) "
                + "VALUES (?, ?, ?) ON CONFLICT (model, partition) DO UPDATE SET next_offset = excluded.next_offset")) {
            for (Map.Entry<Integer, Long> e : next.entrySet()) {
                s.setString(1, model);
                s.setInt(2, e.getKey());
                s.setLong(3, e.getValue());
                s.addBatch();
            }
            s.executeBatch();
        }
    }
}
