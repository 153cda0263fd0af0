package dev.agentbus.gateway.sharing;

import dev.agentbus.api.sharing.ShareLink;
import dev.agentbus.gateway.readmodels.Sql;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** The {@code share_links} table. A link is found by its token's SHA-256; the token itself is never stored. */
final class ShareLinks {
    private ShareLinks() {
    }

    static void insert(Connection c, String linkId, String sessionId, String tokenHash, String createdBy,
                       Instant now) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("INSERT INTO share_links (link_id, session_id, token_hash, "
                + "created_by, created_at) VALUES (?, ?, ?, ?, ?)")) {
            s.setString(1, linkId);
            s.setString(2, sessionId);
            s.setString(3, tokenHash);
            s.setString(4, createdBy);
            Sql.setInstant(s, 5, now);
            s.executeUpdate();
        }
    }

    /** The session an unrevoked link shows. */
    static Optional<String> sessionOf(Connection c, String tokenHash) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(
                "SELECT session_id FROM share_links WHERE token_hash = ? AND revoked_at IS NULL")) {
            s.setString(1, tokenHash);
            try (ResultSet rs = s.executeQuery()) {
                return rs.next() ? Optional.of(rs.getString(1)) : Optional.empty();
            }
        }
    }

    static List<ShareLink> of(Connection c, String sessionId) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("SELECT link_id, created_by, created_at, revoked_at "
                + "FROM share_links WHERE session_id = ? ORDER BY created_at DESC")) {
            s.setString(1, sessionId);
            try (ResultSet rs = s.executeQuery()) {
                List<ShareLink> links = new ArrayList<>();
                while (rs.next()) {
                    links.add(new ShareLink(rs.getString("link_id"), rs.getString("created_by"),
                            Sql.getInstant(rs, "created_at"), Sql.getInstant(rs, "revoked_at")));
                }
                return links;
            }
        }
    }

    /** @return false when the session has no such unrevoked link */
    static boolean revoke(Connection c, String sessionId, String linkId, Instant now) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("UPDATE share_links SET revoked_at = ? "
                + "WHERE link_id = ? AND session_id = ? AND revoked_at IS NULL")) {
            Sql.setInstant(s, 1, now);
            s.setString(2, linkId);
            s.setString(3, sessionId);
            return s.executeUpdate() == 1;
        }
    }
}
