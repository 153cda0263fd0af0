package dev.agentbus.gateway.accounts.signingin;

import dev.agentbus.gateway.readmodels.Sql;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** The {@code login_sessions} table. Cookies are looked up by their SHA-256; the cookie itself is never stored. */
public final class LoginSessions {
    private static final String COLUMNS = "login_id, user_id, csrf_token, created_at, last_seen_at, expires_at, "
            + "absolute_expires_at, address, user_agent";

    private LoginSessions() {
    }

    public static void insert(Connection c, LoginSession l, String tokenHash) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("INSERT INTO login_sessions (" + COLUMNS + ", token_hash) "
                + "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
            s.setString(1, l.loginId());
            s.setString(2, l.userId());
            s.setString(3, l.csrfToken());
            Sql.setInstant(s, 4, l.createdAt());
            Sql.setInstant(s, 5, l.lastSeenAt());
            Sql.setInstant(s, 6, l.expiresAt());
            Sql.setInstant(s, 7, l.absoluteExpiresAt());
            Sql.setText(s, 8, Sql.cut(l.address(), 200));
            Sql.setText(s, 9, Sql.cut(l.userAgent(), 300));
            s.setString(10, tokenHash);
            s.executeUpdate();
        }
    }

    /** The live (not ended) login with this cookie hash; whether it has expired is for the caller to check. */
    public static Optional<LoginSession> byTokenHash(Connection c, String tokenHash) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("SELECT " + COLUMNS + " FROM login_sessions "
                + "WHERE token_hash = ? AND ended_at IS NULL")) {
            s.setString(1, tokenHash);
            try (ResultSet rs = s.executeQuery()) {
                return rs.next() ? Optional.of(read(rs)) : Optional.empty();
            }
        }
    }

    /** The login with this id, if it has not ended; whether it has expired is for the caller to check. */
    public static Optional<LoginSession> byId(Connection c, String loginId) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("SELECT " + COLUMNS + " FROM login_sessions "
                + "WHERE login_id = ? AND ended_at IS NULL")) {
            s.setString(1, loginId);
            try (ResultSet rs = s.executeQuery()) {
                return rs.next() ? Optional.of(read(rs)) : Optional.empty();
            }
        }
    }

    /** The user's logins that have not ended or expired, newest first. */
    public static List<LoginSession> liveOf(Connection c, String userId, Instant now) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("SELECT " + COLUMNS + " FROM login_sessions WHERE user_id = ? "
                + "AND ended_at IS NULL AND expires_at > ? AND absolute_expires_at > ? ORDER BY created_at DESC")) {
            s.setString(1, userId);
            Sql.setInstant(s, 2, now);
            Sql.setInstant(s, 3, now);
            try (ResultSet rs = s.executeQuery()) {
                List<LoginSession> live = new ArrayList<>();
                while (rs.next()) {
                    live.add(read(rs));
                }
                return live;
            }
        }
    }

    /** Slides the expiry: called at most about once a minute per login, not on every request. */
    public static void touch(Connection c, String loginId, Instant now, Instant expiresAt) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(
                "UPDATE login_sessions SET last_seen_at = ?, expires_at = ? WHERE login_id = ? AND ended_at IS NULL")) {
            Sql.setInstant(s, 1, now);
            Sql.setInstant(s, 2, expiresAt);
            s.setString(3, loginId);
            s.executeUpdate();
        }
    }

    /** Ends one of the user's logins. @return false when there is no such live login of that user */
    public static boolean end(Connection c, String userId, String loginId, Instant now) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(
                "UPDATE login_sessions SET ended_at = ? WHERE login_id = ? AND user_id = ? AND ended_at IS NULL")) {
            Sql.setInstant(s, 1, now);
            s.setString(2, loginId);
            s.setString(3, userId);
            return s.executeUpdate() == 1;
        }
    }

    /** Ends every login of the user (a password reset); @return the ids ended */
    public static List<String> endAll(Connection c, String userId, Instant now) throws SQLException {
        return endAllBut(c, userId, null, now);
    }

    /**
     * Ends every login of the user but {@code keep} (the one changing its own password; null for none).
     * @return the ids ended
     */
    public static List<String> endAllBut(Connection c, String userId, String keep, Instant now) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("UPDATE login_sessions SET ended_at = ? "
                + "WHERE user_id = ? AND ended_at IS NULL AND login_id IS DISTINCT FROM ? RETURNING login_id")) {
            Sql.setInstant(s, 1, now);
            s.setString(2, userId);
            s.setString(3, keep);
            try (ResultSet rs = s.executeQuery()) {
                List<String> ended = new ArrayList<>();
                while (rs.next()) {
                    ended.add(rs.getString(1));
                }
                return ended;
            }
        }
    }

    private static LoginSession read(ResultSet rs) throws SQLException {
        return new LoginSession(rs.getString("login_id"), rs.getString("user_id"), rs.getString("csrf_token"),
                Sql.getInstant(rs, "created_at"), Sql.getInstant(rs, "last_seen_at"), Sql.getInstant(rs, "expires_at"),
                Sql.getInstant(rs, "absolute_expires_at"), rs.getString("address"), rs.getString("user_agent"));
    }
}
