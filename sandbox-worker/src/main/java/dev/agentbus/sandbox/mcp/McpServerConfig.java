package dev.agentbus.sandbox.mcp;

import java.util.List;
import java.util.Map;

/**
 * One entry of an {@code mcpServers} configuration: a stdio server ({@code command}, {@code args}, {@code env}) or
 * a streamable-HTTP one ({@code url}, {@code headers}). The environment and the headers may hold secrets: they stay
 * here, in the worker, and are never put in an event or a log line ({@link #toString} leaves them out).
 *
 * @param source  {@code team} or {@code workspace}: where it was configured
 * @param trusted an admin's mark (team configuration only) that the server may run on the worker host itself,
 *                outside any sandbox
 */
record McpServerConfig(String name, String source, String command, List<String> args,
                              Map<String, String> env, String url, Map<String, String> headers, boolean trusted) {
    public static final String TEAM = "team";
    public static final String WORKSPACE = "workspace";

    public McpServerConfig {
        args = args == null ? List.of() : List.copyOf(args);
        env = env == null ? Map.of() : Map.copyOf(env);
        headers = headers == null ? Map.of() : Map.copyOf(headers);
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
