package dev.agentbus.events.mcp;

import java.time.Instant;
import java.util.List;

/**
 * A user's own MCP servers, on the compacted topic {@code agentbus.user-mcp-servers}, keyed by user id; a tombstone
 * (no value) when the user has none. Written only by the gateway ({@code PUT /api/v1/me/mcp-servers}); read by the
 * sandbox-worker, which starts them in every session the user owns (after the team's, before the workspace's), and
 * the gateway.
 *
 * @param servers   in the order the user gave them, source {@code user}, never trusted; every {@code env} and
 *                  {@code headers} value sealed with the installation's secret key (AES-256-GCM, bound to the user
 *                  id), so the topic never holds one in the clear
 * @param version   1, 2, 3 … per user, so a writer can wait for its own change
 */
public record UserMcpServers(String userId, List<McpServerConfig> servers, long version, Instant updatedAt) {
    public UserMcpServers {
        servers = servers == null ? List.of() : List.copyOf(servers);
    }
}
