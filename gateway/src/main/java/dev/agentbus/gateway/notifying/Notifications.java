package dev.agentbus.gateway.notifying;

import dev.agentbus.api.notifying.NotificationItem;
import dev.agentbus.api.notifying.NotificationList;
import dev.agentbus.api.notifying.NotificationSettingsView;
import dev.agentbus.eventbus.outgoing.OutgoingPolicy;
import dev.agentbus.eventbus.outgoing.OutgoingSettings;
import dev.agentbus.gateway.errors.ApiException;
import dev.agentbus.gateway.readmodels.ReadModelDatabase;
import dev.agentbus.gateway.readmodels.Sql;
import jakarta.inject.Singleton;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * A user's notifications and choices, in the gateway's PostgreSQL: the queue (unread first), read marks, and the
 * settings. Without a database every call answers 503, like the other read models.
 */
@Singleton
final class Notifications {
    static final int MAX_LIMIT = 200;

    private final ReadModelDatabase database;
    private final OutgoingPolicy outgoing;

    Notifications(ReadModelDatabase database, OutgoingSettings outgoing) {
        this.outgoing = outgoing.policy();
        this.database = database;
    }

    NotificationList list(String user, int limit) {
        return database.query(db -> {
            List<NotificationItem> items = new ArrayList<>();
            try (PreparedStatement s = db.prepareStatement("SELECT " + NotificationTables.COLUMNS
                    + " FROM notifications WHERE user_id = ? ORDER BY read, id DESC LIMIT ?")) {
                s.setString(1, user);
                s.setInt(2, limit);
                try (ResultSet rs = s.executeQuery()) {
                    while (rs.next()) {
                        items.add(item(rs));
                    }
                }
            }
            return new NotificationList(unread(db, user), items);
        });
    }

    /** Unread notifications after {@code afterId}, oldest first: what a stream sends when a user comes back. */
    List<NotificationItem> unreadAfter(String user, long afterId) {
        return database.query(db -> {
            List<NotificationItem> items = new ArrayList<>();
            try (PreparedStatement s = db.prepareStatement("SELECT " + NotificationTables.COLUMNS
                    + " FROM notifications WHERE user_id = ? AND NOT read AND id > ? ORDER BY id LIMIT ?")) {
                s.setString(1, user);
                s.setLong(2, afterId);
                s.setInt(3, MAX_LIMIT);
                try (ResultSet rs = s.executeQuery()) {
                    while (rs.next()) {
                        items.add(item(rs));
                    }
                }
            }
            return items;
        });
    }

    /** Marks every notification of the user up to and including {@code upTo} read; returns how many are unread. */
    long markRead(String user, long upTo) {
        return database.query(db -> {
            try (PreparedStatement s = db.prepareStatement(
                    "UPDATE notifications SET read = true WHERE user_id = ? AND id <= ? AND NOT read")) {
                s.setString(1, user);
                s.setLong(2, upTo);
                s.executeUpdate();
            }
            return unread(db, user);
        });
    }

    NotificationSettingsView settings(String user) {
        return database.query(db -> {
            try (PreparedStatement s = db.prepareStatement("SELECT kinds, webhook_url, webhook_error, "
                    + "webhook_error_at, webhook_ok_at FROM notification_settings WHERE user_id = ?")) {
                s.setString(1, user);
                try (ResultSet rs = s.executeQuery()) {
                    if (!rs.next()) {
                        return view(NotificationKind.DEFAULTS, null, null, null, null);
                    }
                    return view(NotificationTables.kinds(rs.getString("kinds")), rs.getString("webhook_url"),
                            rs.getString("webhook_error"), Sql.getInstant(rs, "webhook_error_at"),
                            Sql.getInstant(rs, "webhook_ok_at"));
                }
            }
        });
    }

    /**
     * Replaces the user's choices. {@code on} null keeps the kinds chosen before (or the defaults); a webhook URL
     * that changes forgets the old one's failures.
     */
    NotificationSettingsView putSettings(String user, String webhookUrl, List<String> on) {
        String url = WebhookUrl.check(webhookUrl, outgoing);
        Set<NotificationKind> kinds = null;
        if (on != null) {
            kinds = EnumSet.noneOf(NotificationKind.class);
            for (String name : on) {
                String n = name == null ? "" : name.strip();
                kinds.add(NotificationKind.parse(n).orElseThrow(() -> ApiException.badRequest("unknown kind '" + n
                        + "' in on: use turn_ended, wait_fired, approval_pending or message")));
            }
        }
        Set<NotificationKind> chosen = kinds;
        database.query(db -> {
            Set<NotificationKind> keep = chosen != null ? chosen
                    : NotificationTables.choices(db, List.of(user)).getOrDefault(user, UserChoices.DEFAULTS).on();
            try (PreparedStatement s = db.prepareStatement("INSERT INTO notification_settings (user_id, kinds, "
                    + "webhook_url, updated_at) VALUES (?, ?, ?, ?) ON CONFLICT (user_id) DO UPDATE SET "
                    + "kinds = excluded.kinds, webhook_url = excluded.webhook_url, updated_at = excluded.updated_at, "
                    + "webhook_error = CASE WHEN notification_settings.webhook_url IS DISTINCT FROM excluded.webhook_url "
                    + "THEN NULL ELSE notification_settings.webhook_error END, "
                    + "webhook_error_at = CASE WHEN notification_settings.webhook_url IS DISTINCT FROM "
                    + "excluded.webhook_url THEN NULL ELSE notification_settings.webhook_error_at END")) {
                s.setString(1, user);
                s.setString(2, NotificationTables.csv(keep));
                s.setString(3, url);
                Sql.setInstant(s, 4, Instant.now());
                s.executeUpdate();
            }
            return null;
        });
        return settings(user);
    }

    static NotificationItem item(ResultSet rs) throws SQLException {
        return new NotificationItem(rs.getLong("id"), rs.getString("session_id"), rs.getLong("seq"),
                rs.getString("kind"), rs.getString("title"), rs.getString("body"), Sql.getInstant(rs, "created_at"),
                rs.getBoolean("read"));
    }

    private static long unread(Connection db, String user) throws SQLException {
        try (PreparedStatement s = db.prepareStatement(
                "SELECT count(*) FROM notifications WHERE user_id = ? AND NOT read")) {
            s.setString(1, user);
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    private static NotificationSettingsView view(Set<NotificationKind> on, String url, String error,
                                                 Instant errorAt, Instant okAt) {
        return new NotificationSettingsView(on.stream().map(NotificationKind::wireName).toList(), url, error,
                errorAt, okAt);
    }
}
