package dev.agentbus.sandbox.mcp;

import dev.agentbus.events.mcp.McpConfigException;
import dev.agentbus.events.mcp.McpServerConfig;
import dev.agentbus.eventbus.mcp.McpServersJson;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads MCP server configurations in the usual {@code mcpServers} format (Claude Desktop's, LMAgent's
 * {@code mcp.json}):
 * <pre>{"mcpServers": {"files": {"command": "mcp-server-filesystem", "args": ["/workspace"], "env": {}},
 *                 "search": {"url": "https://mcp.example.com/mcp", "headers": {"Authorization": "Bearer …"}}}}</pre>
 *
 * <p>Three places configure servers: the team's, {@code AGENTBUS_MCP_CONFIG} (a file path or the JSON itself), read by
 * the worker; the session owner's own ({@code PUT /api/v1/me/mcp-servers}, read from {@code agentbus.user-mcp-servers}
 * by {@link UserMcpConfigs}); and a session's workspace, {@code .mcp.json} or {@code mcp.json} at its root. The
 * workspace is the agent's to write, so what it may ask for is less: stdio servers only (they run in the sandbox,
 * with its network policy; a URL would make the worker itself connect wherever the file says), never
 * {@code trusted}. On a name used twice the earlier wins: the team's, then the user's, then the workspace's. The
 * rules of each source are in {@link McpServersJson}.
 */
final class McpConfig {
    /** The workspace files read, in this order; the first that exists is used. */
    public static final List<String> WORKSPACE_FILES = List.of(".mcp.json", "mcp.json");

    private McpConfig() {
    }

    /**
     * The team's servers from the setting: empty when blank, the JSON itself when it starts with {@code {}, else
     * the path of a file holding it.
     */
    public static List<McpServerConfig> team(String setting) {
        if (setting == null || setting.isBlank()) {
            return List.of();
        }
        String text = setting.strip();
        if (!text.startsWith("{")) {
            Path file = Path.of(text);
            try {
                text = Files.readString(file);
            } catch (IOException e) {
                throw new McpConfigException("AGENTBUS_MCP_CONFIG: cannot read " + file + ": " + e.getMessage());
            }
        }
        return parse(text, McpServerConfig.TEAM, "AGENTBUS_MCP_CONFIG");
    }

    /** The servers of a workspace's {@code .mcp.json} (or {@code mcp.json}); empty when it has neither. */
    public static List<McpServerConfig> workspace(Path workspace) throws IOException {
        for (String name : WORKSPACE_FILES) {
            Path file = workspace.resolve(name);
            if (Files.isRegularFile(file, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
                return parse(Files.readString(file), McpServerConfig.WORKSPACE, name);
            }
        }
        return List.of();
    }

    /** The team's servers, then the workspace's whose names the team does not use. */
    public static List<McpServerConfig> merge(List<McpServerConfig> team, List<McpServerConfig> workspace) {
        return merge(team, List.of(), workspace);
    }

    /**
     * A session's servers: the team's, then its owner's, then its workspace's; a name already taken keeps the
     * earlier server, so a user cannot replace a server the team configured (and may have marked trusted), and
     * the agent, writing the workspace's file, cannot replace either.
     */
    public static List<McpServerConfig> merge(List<McpServerConfig> team, List<McpServerConfig> user,
                                              List<McpServerConfig> workspace) {
        Map<String, McpServerConfig> all = new LinkedHashMap<>();
        team.forEach(s -> all.putIfAbsent(s.name(), s));
        user.forEach(s -> all.putIfAbsent(s.name(), s));
        workspace.forEach(s -> all.putIfAbsent(s.name(), s));
        return List.copyOf(all.values());
    }

    /** Parses one configuration by the rules of its {@code source} ({@link McpServersJson}). */
    public static List<McpServerConfig> parse(String json, String source, String where) {
        return McpServersJson.parse(json, source, where);
    }
}
