package dev.agentbus.events.mcp;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BinaryOperator;

/**
 * One entry of an {@code mcpServers} configuration: a stdio server ({@code command}, {@code args}, {@code env}) or
 * a streamable-HTTP one ({@code url}, {@code headers}). The environment and the headers may hold secrets: they stay
 * here, in the worker, and are never put in an event or a log line ({@link #toString} leaves them out). On the topic
 * {@code agentbus.user-mcp-servers} (a user's own servers, {@link UserMcpServers}) their values are sealed.
 *
 * @param source  {@code team}, {@code user} or {@code workspace}: where it was configured
 * @param trusted an admin's mark (team configuration only) that the server may run on the worker host itself,
 *                outside any sandbox
 */
public record McpServerConfig(String name, String source, String command, List<String> args,
                              Map<String, String> env, String url, Map<String, String> headers, boolean trusted) {
    public static final String TEAM = "team";
    /** A user's own servers ({@code PUT /api/v1/me/mcp-servers}), in every session the user owns. */
    public static final String USER = "user";
    public static final String WORKSPACE = "workspace";

    public McpServerConfig {
        args = args == null ? List.of() : List.copyOf(args);
        // In the order configured (a process sees its environment, a server its headers, as written).
        env = env == null ? Map.of() : java.util.Collections.unmodifiableMap(new LinkedHashMap<>(env));
        headers = headers == null ? Map.of() : java.util.Collections.unmodifiableMap(new LinkedHashMap<>(headers));
    }

    /**
     * The same server with every environment and header value replaced by {@code change(name, value)}: sealing
     * them for the topic, opening them in the worker, or hiding them ({@code ***}) for an answer.
     */
    public McpServerConfig withSecrets(BinaryOperator<String> change) {
        Map<String, String> e = new LinkedHashMap<>();
        env.forEach((k, v) -> e.put(k, change.apply(k, v)));
        Map<String, String> h = new LinkedHashMap<>();
        headers.forEach((k, v) -> h.put(k, change.apply(k, v)));
        return new McpServerConfig(name, source, command, args, e, url, h, trusted);
    }

    public boolean stdio() {
        return command != null;
    }

    /** {@code stdio} or {@code http}, as the session's state shows it. */
    public String transport() {
        return stdio() ? "stdio" : "http";
    }

    @Override
    public String toString() {
        // Never the environment or the headers: they may be API keys.
        return "MCP server " + name + " (" + source + ", " + (stdio() ? command + " " + String.join(" ", args) : url)
                + (trusted ? ", trusted" : "") + ")";
    }
}
