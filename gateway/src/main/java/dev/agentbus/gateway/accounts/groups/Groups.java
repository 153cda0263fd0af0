package dev.agentbus.gateway.accounts.groups;

import dev.agentbus.api.accounts.Group;
import dev.agentbus.api.accounts.Share;
import dev.agentbus.gateway.readmodels.Sql;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/** The {@code groups}, {@code group_members} and {@code session_shares} tables. */
public final class Groups {
    public static final Pattern GROUP_ID = Pattern.compile("[a-z0-9][a-z0-9._-]{0,63}");
    /** Joined to a share: its owner is a member of the group it is shared with. */
    private static final String OWNER_IN_GROUP = "JOIN group_members o ON o.group_id = s.group_id "
            + "AND o.user_id = s.shared_by ";

    /** How much a share lets a group member do: read sees everything; write also posts, cancels, runs tools. */
    public enum Mode {
        READ, WRITE;

        public String wireName() {
            return name().toLowerCase();
        }

        public static Mode parse(String text) {
            if ("read".equals(text)) {
                return READ;
            }
            if ("write".equals(text)) {
                return WRITE;
            }
            throw new IllegalArgumentException("mode must be 'read' or 'write', not '" + text + "'");
        }
    }

    private Groups() {
    }

    /** @return false when the group exists already */
    public static boolean create(Connection c, String groupId, String createdBy, Instant now) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("INSERT INTO groups (group_id, created_by, created_at) "
                + "VALUES (?, ?, ?) ON CONFLICT DO NOTHING")) {
            s.setString(1, groupId);
            s.setString(2, createdBy);
            Sql.setInstant(s, 3, now);
            return s.executeUpdate() == 1;
        }
    }

    public static boolean delete(Connection c, String groupId) throws SQLException {
        return update(c, "DELETE FROM groups WHERE group_id = ?", groupId);
    }

    public static boolean exists(Connection c, String groupId) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("SELECT 1 FROM groups WHERE group_id = ?")) {
            s.setString(1, groupId);
            try (ResultSet rs = s.executeQuery()) {
                return rs.next();
            }
        }
    }

    public static boolean isMember(Connection c, String groupId, String userId) throws SQLException {
        return !strings(c, "SELECT 1 FROM group_members WHERE group_id = ? AND user_id = ?", groupId, userId)
                .isEmpty();
    }

    public static void addMember(Connection c, String groupId, String userId) throws SQLException {
        update(c, "INSERT INTO group_members (group_id, user_id) VALUES (?, ?) ON CONFLICT DO NOTHING", groupId,
                userId);
    }

    public static boolean removeMember(Connection c, String groupId, String userId) throws SQLException {
        return update(c, "DELETE FROM group_members WHERE group_id = ? AND user_id = ?", groupId, userId);
    }

    public static List<Group> all(Connection c) throws SQLException {
        Map<String, List<String>> members = new LinkedHashMap<>();
        try (PreparedStatement s = c.prepareStatement("SELECT g.group_id, m.user_id FROM groups g "
                + "LEFT JOIN group_members m USING (group_id) ORDER BY g.group_id, m.user_id");
             ResultSet rs = s.executeQuery()) {
            while (rs.next()) {
                List<String> list = members.computeIfAbsent(rs.getString(1), k -> new ArrayList<>());
                if (rs.getString(2) != null) {
                    list.add(rs.getString(2));
                }
            }
        }
        return members.entrySet().stream().map(e -> new Group(e.getKey(), List.copyOf(e.getValue()))).toList();
    }

    public static List<String> of(Connection c, String userId) throws SQLException {
        return strings(c, "SELECT group_id FROM group_members WHERE user_id = ? ORDER BY group_id", userId);
    }

    public static void share(Connection c, String sessionId, String groupId, Mode mode, String by, Instant now)
            throws SQLException {
        try (PreparedStatement s = c.prepareStatement("INSERT INTO session_shares (session_id, group_id, mode, "
                + "shared_by, shared_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT (session_id, group_id) DO UPDATE SET "
                + "mode = excluded.mode, shared_by = excluded.shared_by, shared_at = excluded.shared_at")) {
            s.setString(1, sessionId);
            s.setString(2, groupId);
            s.setString(3, mode.wireName());
            s.setString(4, by);
            Sql.setInstant(s, 5, now);
            s.executeUpdate();
        }
    }

    public static boolean unshare(Connection c, String sessionId, String groupId) throws SQLException {
        return update(c, "DELETE FROM session_shares WHERE session_id = ? AND group_id = ?", sessionId, groupId);
    }

    public static List<Share> sharesOf(Connection c, String sessionId) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("SELECT group_id, mode, shared_by, shared_at "
                + "FROM session_shares WHERE session_id = ? ORDER BY group_id")) {
            s.setString(1, sessionId);
            try (ResultSet rs = s.executeQuery()) {
                List<Share> shares = new ArrayList<>();
                while (rs.next()) {
                    shares.add(new Share(sessionId, rs.getString(1), rs.getString(2), rs.getString(3),
                            Sql.getInstant(rs, "shared_at")));
                }
                return shares;
            }
        }
    }

    /**
     * The most a user may do with a session through their groups' shares: write beats read; empty for none. A share
     * counts only while its owner ({@code shared_by}: only the owner shares) is in the group too, so a share with a
     * group the owner is not in (made before that was refused, or the owner left it since) opens nothing.
     */
    public static Optional<Mode> access(Connection c, String sessionId, String userId) throws SQLException {
        List<String> modes = strings(c, "SELECT s.mode FROM session_shares s JOIN group_members m USING (group_id) "
                + OWNER_IN_GROUP + "WHERE s.session_id = ? AND m.user_id = ?", sessionId, userId);
        if (modes.contains("write")) {
            return Optional.of(Mode.WRITE);
        }
        return modes.isEmpty() ? Optional.empty() : Optional.of(Mode.READ);
    }

    /** The sessions shared with any of the user's groups. */
    public static List<String> sharedWith(Connection c, String userId) throws SQLException {
        return strings(c, "SELECT DISTINCT s.session_id FROM session_shares s JOIN group_members m USING (group_id) "
                + OWNER_IN_GROUP + "WHERE m.user_id = ? ORDER BY s.session_id", userId);
    }

    private static boolean update(Connection c, String sql, String... params) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(sql)) {
            for (int i = 0; i < params.length; i++) {
                s.setString(i + 1, params[i]);
            }
            return s.executeUpdate() > 0;
        }
    }

    private static List<String> strings(Connection c, String sql, String... params) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(sql)) {
            for (int i = 0; i < params.length; i++) {
                s.setString(i + 1, params[i]);
            }
            try (ResultSet rs = s.executeQuery()) {
                List<String> out = new ArrayList<>();
                while (rs.next()) {
                    out.add(rs.getString(1));
                }
                return out;
            }
        }
    }
}
