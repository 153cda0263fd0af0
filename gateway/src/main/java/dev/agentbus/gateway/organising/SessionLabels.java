package dev.agentbus.gateway.organising;

import dev.agentbus.api.organising.SessionLabel;
import dev.agentbus.gateway.readmodels.Sql;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** The {@code session_labels} table: one row per person and session they pinned or filed; none otherwise. */
final class SessionLabels {
    private SessionLabels() {
    }

    static List<SessionLabel> of(Connection c, String userId) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("SELECT session_id, pinned, folder FROM session_labels "
                + "WHERE user_id = ? ORDER BY session_id")) {
            s.setString(1, userId);
            try (ResultSet rs = s.executeQuery()) {
                List<SessionLabel> labels = new ArrayList<>();
                while (rs.next()) {
                    labels.add(new SessionLabel(rs.getString(1), rs.getBoolean(2), rs.getString(3)));
                }
                return labels;
            }
        }
    }

    /** Sets both at once; a label that neither pins nor files is removed, so the table holds only real choices. */
    static void put(Connection c, String userId, SessionLabel label, Instant now) throws SQLException {
        if (!label.pinned() && label.folder() == null) {
            try (PreparedStatement s = c.prepareStatement(
                    "DELETE FROM session_labels WHERE user_id = ? AND session_id = ?")) {
                s.setString(1, userId);
                s.setString(2, label.sessionId());
                s.executeUpdate();
            }
            return;
        }
        try (PreparedStatement s = c.prepareStatement("INSERT INTO session_labels (user_id, session_id, pinned, "
                + "folder, updated_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT (user_id, session_id) DO UPDATE SET "
                + "pinned = EXCLUDED.pinned, folder = EXCLUDED.folder, updated_at = EXCLUDED.updated_at")) {
            s.setString(1, userId);
            s.setString(2, label.sessionId());
            s.setBoolean(3, label.pinned());
            Sql.setText(s, 4, label.folder());
            Sql.setInstant(s, 5, now);
            s.executeUpdate();
        }
    }
}
