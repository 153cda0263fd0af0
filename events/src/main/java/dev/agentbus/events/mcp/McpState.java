package dev.agentbus.events.mcp;

import java.util.List;
import java.util.Optional;

/**
 * The MCP servers of a session and their tools, as last listed by the sandbox-worker
 * ({@code mcp.tools.listed.v1}): the tools the model is offered next to the built-in ones, and what the session's
 * state shows. Left out of the state's JSON while a session has none.
 */
public record McpState(List<McpServerView> servers) {
    public static final McpState NONE = new McpState(List.of());

    public McpState {
        servers = servers == null ? List.of() : List.copyOf(servers);
    }

    /** Every tool of the live servers, in configuration order. */
    public List<McpToolView> tools() {
        return servers.stream().filter(McpServerView::live).flatMap(s -> s.tools().stream()).toList();
    }

    /** A live server's tool by the name the model sees. */
    public Optional<McpToolView> tool(String name) {
        return tools().stream().filter(t -> t.name().equals(name)).findFirst();
    }

    /** For {@code @JsonInclude(CUSTOM)}: a state without MCP servers reads as one written before they existed. */
    public static final class IsNone {
        @Override
        public boolean equals(Object value) {
            return value == null || NONE.equals(value);
        }

        @Override
        public int hashCode() {
            return 0;
        }
    }
}
