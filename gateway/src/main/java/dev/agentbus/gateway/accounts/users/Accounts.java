package dev.agentbus.gateway.accounts.users;

import dev.agentbus.gateway.auth.Role;
import dev.agentbus.gateway.readmodels.Sql;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/** The {@code accounts} table: every statement on it, each in the caller's transaction. */
public final class Accounts {
    /**
     * Usernames become user ids, which name workspace directories and Kafka keys: lowercase letters, digits and
     * {@code . _ -}, starting with a letter or digit.
     */
    public static final Pattern USERNAME = Pattern.compile("[a-z0-9][a-z0-9._-]{0,63}");

    private static final String COLUMNS = "user_id, username, role, password_hash, totp_secret, totp_enabled, "
            + "totp_last_step, created_at";

    private Accounts() {
    }

    public static Optional<Account> byId(Connection c, String userId) throws SQLException {
        return one(c, "SELECT " + COLUMNS + " FROM accounts WHERE user_id = ?", userId);
    }

    public static Optional<Account> byUsername(Connection c, String username) throws SQLException {
        return one(c, "SELECT " + COLUMNS + " FROM accounts WHERE username = ?", normalize(username));
    }

    public static List<Account> all(Connection c) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("SELECT " + COLUMNS + " FROM accounts ORDER BY username");
             ResultSet rs = s.executeQuery()) {
            List<Account> all = new ArrayList<>();
            while (rs.next()) {
                all.add(read(rs));
            }
            return all;
        }
    }

    public static long count(Connection c) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("SELECT count(*) FROM accounts");
             ResultSet rs = s.executeQuery()) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /** @return false when the user id or the username is taken (nothing is written then) */
    public static boolean insert(Connection c, String userId, String username, Role role, String passwordHash,
                                 Instant now) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("INSERT INTO accounts (user_id, username, role, password_hash, "
                + "created_at, password_changed_at) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING")) {
            s.setString(1, userId);
            s.setString(2, normalize(username));
            s.setString(3, role.wireName());
            s.setString(4, passwordHash);
            Sql.setInstant(s, 5, now);
            Sql.setInstant(s, 6, now);
            return s.executeUpdate() == 1;
        }
    }

    public static boolean setRole(Connection c, String userId, Role role) throws SQLException {
        return update(c, "UPDATE accounts SET role = ? WHERE user_id = ?", role.wireName(), userId);
    }

    public static void setPassword(Connection c, String userId, String passwordHash, Instant now)
            throws SQLException {
        try (PreparedStatement s = c.prepareStatement(
                "UPDATE accounts SET password_hash = ?, password_changed_at = ? WHERE user_id = ?")) {
            s.setString(1, passwordHash);
            Sql.setInstant(s, 2, now);
            s.setString(3, userId);
            s.executeUpdate();
        }
    }

    /** A pending enrolment: the secret is stored, two-factor stays off until a first code confirms it. */
    public static void setPendingTotp(Connection c, String userId, String secret) throws SQLException {
        update(c, "UPDATE accounts SET totp_secret = ?, totp_enabled = false, totp_last_step = 0 WHERE user_id = ?",
                secret, userId);
    }

    public static void enableTotp(Connection c, String userId) throws SQLException {
        update(c, "UPDATE accounts SET totp_enabled = true WHERE user_id = ?", userId);
    }

    /**
     * Records that a code of this time step was used, only if no code of this or a later step was: the condition is
     * in the UPDATE, so two logins racing with the same code cannot both win.
     *
     * @return false for a replayed code
     */
    public static boolean useTotpStep(Connection c, String userId, long step) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(
                "UPDATE accounts SET totp_last_step = ? WHERE user_id = ? AND totp_last_step < ?")) {
            s.setLong(1, step);
            s.setString(2, userId);
            s.setLong(3, step);
            return s.executeUpdate() == 1;
        }
    }

    public static String normalize(String username) {
        return username == null ? "" : username.trim().toLowerCase();
    }

    private static boolean update(Connection c, String sql, String... params) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(sql)) {
            for (int i = 0; i < params.length; i++) {
                s.setString(i + 1, params[i]);
            }
            return s.executeUpdate() > 0;
        }
    }

    private static Optional<Account> one(Connection c, String sql, String param) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(sql)) {
            s.setString(1, param);
            try (ResultSet rs = s.executeQuery()) {
                return rs.next() ? Optional.of(read(rs)) : Optional.empty();
            }
        }
    }

    private static Account read(ResultSet rs) throws SQLException {
        return new Account(rs.getString("user_id"), rs.getString("username"), Role.parse(rs.getString("role")),
                rs.getString("password_hash"), rs.getString("totp_secret"), rs.getBoolean("totp_enabled"),
                rs.getLong("totp_last_step"), Sql.getInstant(rs, "created_at"));
    }
}
