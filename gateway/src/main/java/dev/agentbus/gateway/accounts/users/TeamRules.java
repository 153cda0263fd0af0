package dev.agentbus.gateway.accounts.users;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/** The {@code account_settings} table: team-wide rules an admin changes at run time. */
public final class TeamRules {
    private static final String REQUIRE_TOTP = "require_totp";

    private TeamRules() {
    }

    public static boolean requireTotp(Connection c) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("SELECT value::text FROM account_settings WHERE name = ?")) {
            s.setString(1, REQUIRE_TOTP);
            try (ResultSet rs = s.executeQuery()) {
                return rs.next() && "true".equals(rs.getString(1));
            }
        }
    }

    public static void setRequireTotp(Connection c, boolean required) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("INSERT INTO account_settings (name, value) VALUES (?, ?::jsonb) "
                + "ON CONFLICT (name) DO UPDATE SET value = excluded.value")) {
            s.setString(1, REQUIRE_TOTP);
            s.setString(2, Boolean.toString(required));
            s.executeUpdate();
        }
    }
}
