package dev.agentbus.gateway.readmodels.sessionlist;

import dev.agentbus.events.state.SessionStatus;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/** Queries the sessions read model: one user's sessions, most recently updated first, a page at a time. */
final class SessionList {
    private SessionList() {
    }

    public static List<SessionSummary> page(Connection db, String userId, SessionStatus status, int limit, int offset)
            throws SQLException {
        String sql = "SELECT " + SessionSummaryProjection.COLUMNS + " FROM sessions WHERE user_id = ?"
                // A deleted session keeps its row (the projection folds into it) but is listed nowhere.
                + " AND status <> 'DELETED'"
                + (status == null ? "" : " AND status = ?")
                + " ORDER BY updated_at DESC, session_id LIMIT ? OFFSET ?";
        try (PreparedStatement s = db.prepareStatement(sql)) {
            int i = 1;
            s.setString(i++, userId);
            if (status != null) {
                s.setString(i++, status.name());
            }
            s.setInt(i++, limit);
            s.setInt(i, offset);
            List<SessionSummary> out = new ArrayList<>();
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    out.add(SessionSummaryProjection.read(rs));
                }
            }
            return out;
        }
    }
}
