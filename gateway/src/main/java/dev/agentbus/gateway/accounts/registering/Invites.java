package dev.agentbus.gateway.accounts.registering;

import dev.agentbus.gateway.auth.Role;
import dev.agentbus.gateway.readmodels.Sql;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;

/** The {@code invites} table. Codes are looked up by their SHA-256; the code itself is never stored. */
final class Invites {
    /** What taking an invite found: the role it grants, or why it cannot be used. */
    public sealed interface Taken {
        record Granted(Role role) implements Taken {
        }

        record Refused(String reason) implements Taken {
        }
    }

    private Invites() {
    }

    public static void insert(Connection c, String codeHash, Role role, String createdBy, Instant now,
                              Instant expiresAt) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("INSERT INTO invites (code_hash, role, created_by, created_at, "
                + "expires_at) VALUES (?, ?, ?, ?, ?)")) {
            s.setString(1, codeHash);
            s.setString(2, role.wireName());
            s.setString(3, createdBy);
            Sql.setInstant(s, 4, now);
            Sql.setInstant(s, 5, expiresAt);
            s.executeUpdate();
        }
    }

    /**
     * Marks the invite used by {@code userId}, if it is usable. The row is locked ({@code FOR UPDATE}), so two
     * registrations racing with one code cannot both take it.
     */
    public static Taken take(Connection c, String codeHash, String userId, Instant now) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(
                "SELECT role, expires_at, used_at FROM invites WHERE code_hash = ? FOR UPDATE")) {
            s.setString(1, codeHash);
            try (ResultSet rs = s.executeQuery()) {
                if (!rs.next()) {
                    return new Taken.Refused("unknown invite code");
                }
                if (rs.getObject("used_at") != null) {
                    return new Taken.Refused("this invite was already used");
                }
                if (!now.isBefore(Sql.getInstant(rs, "expires_at"))) {
                    return new Taken.Refused("this invite has expired");
                }
                Role role = Role.parse(rs.getString("role"));
                try (PreparedStatement u = c.prepareStatement(
                        "UPDATE invites SET used_by = ?, used_at = ? WHERE code_hash = ?")) {
                    u.setString(1, userId);
                    Sql.setInstant(u, 2, now);
                    u.setString(3, codeHash);
                    u.executeUpdate();
                }
                return new Taken.Granted(role);
            }
        }
    }
}
