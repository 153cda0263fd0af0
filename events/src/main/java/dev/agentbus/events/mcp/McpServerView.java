package dev.agentbus.events.mcp;

import java.util.List;

/**
 * One MCP server of a session, as the sandbox-worker found it when it listed the tools. Never its command line's
 * environment or its HTTP headers: those may hold secrets, and they stay in the worker's configuration.
 *
 * @param name      the server's name in the {@code mcpServers} configuration
 * @param transport {@code stdio} or {@code http} (streamable HTTP)
 * @param source    where it was configured: {@code team} ({@code AGENTBUS_MCP_CONFIG}), {@code user} (the session
 *                  owner's own, {@code PUT /api/v1/me/mcp-servers}) or {@code workspace} ({@code .mcp.json} or
 *                  {@code mcp.json} in the session's workspace)
 * @param live      whether the server answered; false with {@code error} saying why not
 * @param error     why the server could not be reached or listed, null when live
 * @param tools     its tools, in the server's order (none when not live)
 */
public record McpServerView(String name, String transport, String source, boolean live, String error,
                            List<McpToolView> tools) {
    public McpServerView {
        tools = tools == null ? List.of() : List.copyOf(tools);
    }
}
