package dev.agentbus.gateway.accounts.apikeys;

import dev.agentbus.api.accounts.ApiKey;
import dev.agentbus.gateway.readmodels.Sql;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** The {@code api_keys} table. Keys are looked up by their SHA-256; the key itself is never stored. */
public final class ApiKeys {
    /** An unrevoked key: whose it is. */
    public record Owner(String keyId, String userId) {
    }

    private ApiKeys() {
    }

    public static void insert(Connection c, String keyId, String userId, String name, String keyHash, Instant now)
            throws SQLException {
        try (PreparedStatement s = c.prepareStatement("INSERT INTO api_keys (key_id, user_id, name, key_hash, "
                + "created_at) VALUES (?, ?, ?, ?, ?)")) {
            s.setString(1, keyId);
            s.setString(2, userId);
            Sql.setText(s, 3, name);
            s.setString(4, keyHash);
            Sql.setInstant(s, 5, now);
            s.executeUpdate();
        }
    }

    public static Optional<Owner> byHash(Connection c, String keyHash) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(
                "SELECT key_id, user_id FROM api_keys WHERE key_hash = ? AND revoked_at IS NULL")) {
            s.setString(1, keyHash);
            try (ResultSet rs = s.executeQuery()) {
                return rs.next() ? Optional.of(new Owner(rs.getString(1), rs.getString(2))) : Optional.empty();
            }
        }
    }

    /** Whether the key exists and is not revoked. */
    public static boolean live(Connection c, String keyId) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(
                "SELECT 1 FROM api_keys WHERE key_id = ? AND revoked_at IS NULL")) {
            s.setString(1, keyId);
            try (ResultSet rs = s.executeQuery()) {
                return rs.next();
            }
        }
    }

    /** Revokes every key of the user (a password reset or change, an admin's revoke-all); @return the ids revoked */
    public static List<String> revokeAll(Connection c, String userId, Instant now) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("UPDATE api_keys SET revoked_at = ? "
                + "WHERE user_id = ? AND revoked_at IS NULL RETURNING key_id")) {
            Sql.setInstant(s, 1, now);
            s.setString(2, userId);
            try (ResultSet rs = s.executeQuery()) {
                List<String> revoked = new ArrayList<>();
                while (rs.next()) {
                    revoked.add(rs.getString(1));
                }
                return revoked;
            }
        }
    }

    public static List<ApiKey> of(Connection c, String userId) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("SELECT key_id, name, created_at, last_used_at, revoked_at "
                + "FROM api_keys WHERE user_id = ? ORDER BY created_at DESC")) {
            s.setString(1, userId);
            try (ResultSet rs = s.executeQuery()) {
                List<ApiKey> keys = new ArrayList<>();
                while (rs.next()) {
                    keys.add(new ApiKey(rs.getString("key_id"), rs.getString("name"),
                            Sql.getInstant(rs, "created_at"), Sql.getInstant(rs, "last_used_at"),
                            Sql.getInstant(rs, "revoked_at")));
                }
                return keys;
            }
        }
    }

    public static void used(Connection c, String keyId, Instant now) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("UPDATE api_keys SET last_used_at = ? WHERE key_id = ?")) {
            Sql.setInstant(s, 1, now);
            s.setString(2, keyId);
            s.executeUpdate();
        }
    }

    /** @return false when the user has no such unrevoked key */
    public static boolean revoke(Connection c, String userId, String keyId, Instant now) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("UPDATE api_keys SET revoked_at = ? "
                + "WHERE key_id = ? AND user_id = ? AND revoked_at IS NULL")) {
            Sql.setInstant(s, 1, now);
            s.setString(2, keyId);
            s.setString(3, userId);
            return s.executeUpdate() == 1;
        }
    }
}
