package dev.agentbus.events.mcp;

import java.util.Optional;
import java.util.regex.Pattern;

/**
 * How the model sees an MCP server's tool: {@code mcp__<server>__<tool>}, the convention of Claude Code and
 * LMAgent, so a tool's origin is plain in its name and two servers can both have a {@code search} tool.
 *
 * <p>OpenAI-compatible servers accept tool names of {@code [a-zA-Z0-9_-]} and at most 64 characters. A server name
 * must already be such a name without {@code __} (the configuration refuses others, see the worker's
 * {@code McpConfig}); a tool name that is not is spelled with {@code _} for every other character and cut to fit.
 * The real name is kept beside the shown one ({@link McpToolView#tool()}), so the call still reaches the right tool.
 */
public final class McpToolNames {
    /** Every MCP tool's name starts with this. */
    public static final String PREFIX = "mcp__";
    /** The most characters OpenAI-compatible servers accept in a tool name. */
    public static final int MAX_LENGTH = 64;

    private static final Pattern SERVER_NAME = Pattern.compile("[A-Za-z0-9-]+(_[A-Za-z0-9-]+)*");
    private static final Pattern NOT_ALLOWED = Pattern.compile("[^A-Za-z0-9_-]");

    private McpToolNames() {
    }

    /** Whether {@code name} is one of an MCP server's tools (by its prefix alone). */
    public static boolean isMcp(String name) {
        return name != null && name.startsWith(PREFIX);
    }

    /**
     * Why {@code server} cannot name an MCP server, or empty when it can: letters, digits, {@code -} and single
     * {@code _}s, short enough to leave room for a tool name.
     */
    public static Optional<String> serverNameProblem(String server) {
        if (server == null || server.isEmpty()) {
            return Optional.of("an MCP server needs a name");
        }
        if (!SERVER_NAME.matcher(server).matches()) {
            return Optional.of("MCP server name '" + server + "' may only have letters, digits, '-' and single '_' "
                    + "(not at either end), since the model sees its tools as mcp__" + server + "__<tool>");
        }
        if (server.length() > 32) {
            return Optional.of("MCP server name '" + server + "' is longer than 32 characters");
        }
        return Optional.empty();
    }

    /** The name the model sees for {@code tool} of {@code server}. */
    public static String of(String server, String tool) {
        String name = PREFIX + server + "__" + NOT_ALLOWED.matcher(tool).replaceAll("_");
        return name.length() <= MAX_LENGTH ? name : name.substring(0, MAX_LENGTH);
    }

    /** The server part of a name made by {@link #of}, or empty when it is not one. */
    public static Optional<String> serverOf(String name) {
        if (!isMcp(name)) {
            return Optional.empty();
        }
        int end = name.indexOf("__", PREFIX.length());
        return end <= PREFIX.length() ? Optional.empty() : Optional.of(name.substring(PREFIX.length(), end));
    }
}
