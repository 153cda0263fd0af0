package dev.agentbus.api.accounts;

import com.fasterxml.jackson.annotation.JsonInclude;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * {@code GET/PUT/DELETE /api/v1/me/mcp-servers}: the caller's own MCP servers, in the {@code mcpServers} format they
 * were given in, every {@code env} and {@code headers} value shown as {@code "***"} (the values are kept sealed and
 * never returned). {@code own} false: none ({@code mcpServers} empty, no {@code version}).
 *
 * @param version 1, 2, 3 … one more for every change
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record McpServers(boolean own, Map<String, Server> mcpServers, Long version, Instant updatedAt) {
    /** What every hidden value is shown as. */
    public static final String HIDDEN = "***";

    /** One server: {@code command}, {@code args}, {@code env} (stdio) or {@code url}, {@code headers} (HTTP). */
    @JsonInclude(JsonInclude.Include.NON_EMPTY)
    public record Server(String command, List<String> args, Map<String, String> env, String url,
                         Map<String, String> headers) {
    }

    public static McpServers none() {
        return new McpServers(false, Map.of(), null, null);
    }
}
