package dev.agentbus.gateway.notifying;

import dev.agentbus.gateway.readmodels.Sql;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.util.UUID;

/**
 * Notifications about a user's account rather than one of their sessions (two-factor login locked, say): a row in
 * the user's notification queue like any other, of kind {@code account}, shown in the web UI's list and on the
 * live streams, written in the transaction of the change it reports. No session, so its session id is blank, and no
 * webhook (a webhook is for session work).
 */
public final class AccountNotices {
    public static final String KIND = "account";

    private AccountNotices() {
    }

    public static void post(Connection c, String userId, String title, String body, Instant now) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("INSERT INTO notifications (user_id, event_id, session_id, "
                + "seq, kind, title, body, created_at) VALUES (?, ?, '', 0, ?, ?, ?, ?)")) {
            s.setString(1, userId);
            s.setString(2, "account:" + UUID.randomUUID());
            s.setString(3, KIND);
            s.setString(4, Sql.clean(title));
            Sql.setText(s, 5, body);
            Sql.setInstant(s, 6, now);
            s.executeUpdate();
        }
    }
}
