package dev.agentbus.gateway.notifying;

import dev.agentbus.gateway.readmodels.Sql;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Arrays;
import java.util.Collection;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/** The SQL of the two notification tables, shared by the projection, the routes and the webhook deliverer. */
final class NotificationTables {
    static final String COLUMNS = "id, user_id, session_id, seq, kind, title, body, created_at, read";

    private NotificationTables() {
    }

    static Map<String, UserChoices> choices(Connection db, Collection<String> users) throws SQLException {
        Map<String, UserChoices> out = new HashMap<>();
        if (users.isEmpty()) {
            return out;
        }
        try (PreparedStatement s = db.prepareStatement(
                "SELECT user_id, kinds, webhook_url FROM notification_settings WHERE user_id = ANY (?)")) {
            s.setArray(1, db.createArrayOf("text", users.toArray()));
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    out.put(rs.getString("user_id"),
                            new UserChoices(kinds(rs.getString("kinds")), rs.getString("webhook_url")));
                }
            }
        }
        return out;
    }

    static Set<NotificationKind> kinds(String csv) {
        Set<NotificationKind> out = EnumSet.noneOf(NotificationKind.class);
        Arrays.stream(csv == null ? new String[0] : csv.split(",")).map(String::strip)
                .forEach(k -> NotificationKind.parse(k).ifPresent(out::add));
        return out;
    }

    static String csv(Set<NotificationKind> kinds) {
        return kinds.stream().map(NotificationKind::wireName).collect(Collectors.joining(","));
    }

    /** Inserts each notification once: a second row for the same event (a replay, a rebuild) is skipped. */
    static void insert(Connection db, Collection<Notification> notifications, Map<String, UserChoices> choices,
                       Instant now) throws SQLException {
        try (PreparedStatement s = db.prepareStatement("INSERT INTO notifications (user_id, event_id, session_id, "
                + "seq, kind, title, body, created_at, webhook_state, webhook_next_at) "
                + "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (event_id) DO NOTHING")) {
            for (Notification n : notifications) {
                boolean webhook = choices.getOrDefault(n.userId(), UserChoices.DEFAULTS).webhookUrl() != null;
                s.setString(1, n.userId());
                s.setString(2, n.eventId());
                s.setString(3, n.sessionId());
                s.setLong(4, n.seq());
                s.setString(5, n.kind().wireName());
                s.setString(6, Sql.clean(n.title()));
                Sql.setText(s, 7, n.body());
                Sql.setInstant(s, 8, n.createdAt());
                s.setString(9, webhook ? "pending" : null);
                Sql.setInstant(s, 10, webhook ? now : null);
                s.addBatch();
            }
            s.executeBatch();
        }
    }
}
