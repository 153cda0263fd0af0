package dev.agentbus.events.mcp;

/** An {@code mcpServers} configuration that cannot be used; the message says what is wrong and where. */
public final class McpConfigException extends RuntimeException {
    public McpConfigException(String message) {
        super(message);
    }
}
