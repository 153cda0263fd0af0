package dev.agentbus.gateway.accounts.auditing;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.agentbus.api.accounts.AccountEvent;
import dev.agentbus.events.Json;
import dev.agentbus.gateway.readmodels.Sql;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The account audit, {@code account_events}: appended in the transaction of the change it records, so a change
 * without its record (or a record of a change that was rolled back) cannot exist. Details never hold a secret.
 */
public final class AccountEvents {
    /** The types written; docs/security.md lists them. */
    public static final String LOGIN = "login";
    public static final String LOGIN_FAILED = "login_failed";
    public static final String LOGOUT = "logout";
    public static final String LOGIN_ENDED = "login_ended";
    public static final String REGISTERED = "registered";
    public static final String ADMIN_CREATED = "admin_created";
    public static final String INVITE_CREATED = "invite_created";
    public static final String API_KEY_CREATED = "api_key_created";
    public static final String API_KEY_REVOKED = "api_key_revoked";
    public static final String PASSWORD_CHANGED = "password_changed";
    public static final String PASSWORD_RESET = "password_reset";
    public static final String ROLE_CHANGED = "role_changed";
    public static final String TOTP_ENROLLED = "totp_enrolled";
    public static final String BACKUP_CODE_USED = "backup_code_used";
    public static final String TOTP_LOCKED = "totp_locked";
    public static final String TOTP_RESET = "totp_reset";
    public static final String API_KEYS_REVOKED = "api_keys_revoked";
    public static final String SETTINGS_CHANGED = "settings_changed";
    public static final String GROUP_CHANGED = "group_changed";
    public static final String SESSION_SHARED = "session_shared";
    public static final String MODEL_SERVER_CHANGED = "model_server_changed";
    public static final String MCP_SERVERS_CHANGED = "mcp_servers_changed";

    private AccountEvents() {
    }

    public static void append(Connection c, Instant time, String type, String userId, String actorId, String address,
                              Map<String, ?> details) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("INSERT INTO account_events (time, type, user_id, actor_id, "
                + "address, details) VALUES (?, ?, ?, ?, ?, ?::jsonb)")) {
            Sql.setInstant(s, 1, time);
            s.setString(2, type);
            Sql.setText(s, 3, userId);
            Sql.setText(s, 4, actorId);
            Sql.setText(s, 5, address);
            s.setString(6, Json.mapper().writeValueAsString(details == null ? Map.of() : details));
            s.executeUpdate();
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("account event details are not JSON: " + e.getMessage(), e);
        }
    }

    /**
     * Records a change a user made to their own account, if it happened (a key revoked that existed, a login ended
     * that was live), in the change's transaction. @return whether it happened
     */
    public static boolean ifChanged(Connection c, boolean changed, Instant time, String type, String userId,
                                    String address, Map<String, ?> details) throws SQLException {
        if (changed) {
            append(c, time, type, userId, userId, address, details);
        }
        return changed;
    }

    /** Newest first; {@code userId} null for everyone's (admins only), else the records about that user. */
    public static List<AccountEvent> newest(Connection c, String userId, int limit) throws SQLException {
        String sql = "SELECT event_id, time, type, user_id, actor_id, address, details::text AS details "
                + "FROM account_events" + (userId == null ? "" : " WHERE user_id = ? OR actor_id = ?")
                + " ORDER BY event_id DESC LIMIT ?";
        try (PreparedStatement s = c.prepareStatement(sql)) {
            int i = 1;
            if (userId != null) {
                s.setString(i++, userId);
                s.setString(i++, userId);
            }
            s.setInt(i, limit);
            try (ResultSet rs = s.executeQuery()) {
                List<AccountEvent> events = new ArrayList<>();
                while (rs.next()) {
                    events.add(new AccountEvent(rs.getLong("event_id"), Sql.getInstant(rs, "time"),
                            rs.getString("type"), rs.getString("user_id"), rs.getString("actor_id"),
                            rs.getString("address"), details(rs.getString("details"))));
                }
                return events;
            }
        }
    }

    private static JsonNode details(String json) {
        try {
            return Json.mapper().readTree(json);
        } catch (JsonProcessingException e) {
            return Json.mapper().createObjectNode();
        }
    }
}
