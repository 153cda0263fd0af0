package dev.agentbus.sandbox.mcp;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.agentbus.events.Json;
import dev.agentbus.events.mcp.McpToolNames;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Reads MCP server configurations in the usual {@code mcpServers} format (Claude Desktop's, LMAgent's
 * {@code mcp.json}):
 * <pre>{"mcpServers": {"files": {"command": "mcp-server-filesystem", "args": ["/workspace"], "env": {}},
 *                 "search": {"url": "https://mcp.example.com/mcp", "headers": {"Authorization": "Bearer …"}}}}</pre>
 *
 * <p>Two places configure servers: the team's, {@code AGENTBUS_MCP_CONFIG} (a file path or the JSON itself), read by
 * the worker; and a session's workspace, {@code .mcp.json} or {@code mcp.json} at its root. The workspace is the
 * agent's to write, so what it may ask for is less: stdio servers only (they run in the sandbox, with its network
 * policy; a URL would make the worker itself connect wherever the file says), never {@code trusted}, and never a
 * name the team already uses (the team's server wins).
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
        Map<String, McpServerConfig> all = new LinkedHashMap<>();
        team.forEach(s -> all.put(s.name(), s));
        workspace.forEach(s -> all.putIfAbsent(s.name(), s));
        return List.copyOf(all.values());
    }

    /**
     * Parses one configuration; {@code where} names it in error messages.
     *
     * @throws McpConfigException naming the server and what is wrong with it
     */
    public static List<McpServerConfig> parse(String json, String source, String where) {
        JsonNode root;
        try {
            root = Json.mapper().readTree(json);
        } catch (JsonProcessingException e) {
            throw new McpConfigException(where + " is not valid JSON: " + e.getOriginalMessage());
        }
        if (root == null || !root.isObject()) {
            throw new McpConfigException(where + " must be a JSON object with \"mcpServers\"");
        }
        JsonNode servers = root.get("mcpServers");
        if (servers == null) {
            return List.of();
        }
        if (!servers.isObject()) {
            throw new McpConfigException(where + ": \"mcpServers\" must be an object of servers by name");
        }
        List<McpServerConfig> out = new ArrayList<>();
        Iterator<Map.Entry<String, JsonNode>> fields = servers.fields();
        while (fields.hasNext()) {
            Map.Entry<String, JsonNode> e = fields.next();
            out.add(server(e.getKey(), e.getValue(), source, where));
        }
        return List.copyOf(out);
    }

    private static McpServerConfig server(String name, JsonNode node, String source, String where) {
        String at = where + ": server '" + name + "'";
        Optional<String> badName = McpToolNames.serverNameProblem(name);
        if (badName.isPresent()) {
            throw new McpConfigException(where + ": " + badName.get());
        }
        if (!node.isObject()) {
            throw new McpConfigException(at + " must be an object with \"command\" or \"url\"");
        }
        String command = text(node, "command", at);
        String url = text(node, "url", at);
        if ((command == null) == (url == null)) {
            throw new McpConfigException(at + " needs exactly one of \"command\" (stdio) or \"url\" (streamable HTTP)");
        }
        boolean trusted = node.path("trusted").asBoolean(false);
        boolean team = McpServerConfig.TEAM.equals(source);
        if (!team && trusted) {
            throw new McpConfigException(at + ": only the team's configuration (AGENTBUS_MCP_CONFIG) may mark a "
                    + "server trusted");
        }
        if (url != null) {
            if (!team) {
                throw new McpConfigException(at + ": a workspace may configure stdio servers only (they run in the "
                        + "sandbox); remote servers belong in the team's configuration (AGENTBUS_MCP_CONFIG)");
            }
            URI uri;
            try {
                uri = URI.create(url);
            } catch (IllegalArgumentException e) {
                throw new McpConfigException(at + ": \"url\" is not a URL: " + url);
            }
            if (!"http".equals(uri.getScheme()) && !"https".equals(uri.getScheme()) || uri.getHost() == null) {
                throw new McpConfigException(at + ": \"url\" must be an http or https URL, not " + url);
            }
        }
        if (command != null && command.isBlank()) {
            throw new McpConfigException(at + ": \"command\" is empty");
        }
        return new McpServerConfig(name, source, command, strings(node, "args", at), map(node, "env", at), url,
                map(node, "headers", at), trusted);
    }

    private static String text(JsonNode node, String field, String at) {
        JsonNode v = node.get(field);
        if (v == null || v.isNull()) {
            return null;
        }
        if (!v.isTextual()) {
            throw new McpConfigException(at + ": \"" + field + "\" must be a string");
        }
        return v.asText();
    }

    private static List<String> strings(JsonNode node, String field, String at) {
        JsonNode v = node.get(field);
        if (v == null || v.isNull()) {
            return List.of();
        }
        if (!v.isArray()) {
            throw new McpConfigException(at + ": \"" + field + "\" must be an array of strings");
        }
        List<String> out = new ArrayList<>();
        for (JsonNode item : v) {
            if (!item.isTextual()) {
                throw new McpConfigException(at + ": \"" + field + "\" must be an array of strings");
            }
            out.add(item.asText());
        }
        return out;
    }

    private static Map<String, String> map(JsonNode node, String field, String at) {
        JsonNode v = node.get(field);
        if (v == null || v.isNull()) {
            return Map.of();
        }
        if (!v.isObject()) {
            throw new McpConfigException(at + ": \"" + field + "\" must be an object of strings");
        }
        Map<String, String> out = new LinkedHashMap<>();
        Iterator<Map.Entry<String, JsonNode>> it = v.fields();
        while (it.hasNext()) {
            Map.Entry<String, JsonNode> e = it.next();
            if (!e.getValue().isTextual()) {
                // Never echo the value: it may be a secret.
                throw new McpConfigException(at + ": \"" + field + "\" value of '" + e.getKey() + "' must be a string");
            }
            out.put(e.getKey(), e.getValue().asText());
        }
        return out;
    }
}
