package dev.agentbus.gateway.readmodels.projecting;

import dev.agentbus.events.topics.Topics;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.Map;

/**
 * The {@code projection_offsets} table: per partition of the session log, the offset of the next record to apply.
 * A partition without a row starts at 0.
 */
final class ProjectionOffsets {
    static final String TOPIC = Topics.SESSION_EVENTS.name();

    private ProjectionOffsets() {
    }

    /**
     * Makes this transaction the only one applying records (or rebuilding) until it ends. Gateway replicas that share
     * the database each run a projector; with this lock and the offsets read under it, each record is applied by
     * exactly one of them. Plain reads of the offsets (status, the periodic check) are not blocked.
     */
    static void lock(Connection db) throws SQLException {
        try (Statement s = db.createStatement()) {
            s.execute("LOCK TABLE projection_offsets IN EXCLUSIVE MODE");
        }
    }

    static Map<Integer, Long> read(Connection db) throws SQLException {
        Map<Integer, Long> next = new HashMap<>();
        try (PreparedStatement s = db.prepareStatement(
                "SELECT partition, next_offset FROM projection_offsets WHERE topic = ?")) {
            s.setString(1, TOPIC);
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    next.put(rs.getInt(1), rs.getLong(2));
                }
            }
        }
        return next;
    }

    static void write(Connection db, Map<Integer, Long> next) throws SQLException {
        try (PreparedStatement s = db.prepareStatement("INSERT INTO projection_offsets (topic, partition, next_offset) "
                + "VALUES (?, ?, ?) ON CONFLICT (topic, partition) DO UPDATE SET next_offset = excluded.next_offset")) {
            for (Map.Entry<Integer, Long> e : next.entrySet()) {
                s.setString(1, TOPIC);
                s.setInt(2, e.getKey());
                s.setLong(3, e.getValue());
                s.addBatch();
            }
            s.executeBatch();
        }
    }
}
