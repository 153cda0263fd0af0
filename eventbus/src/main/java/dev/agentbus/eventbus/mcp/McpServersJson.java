package dev.agentbus.eventbus.mcp;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.agentbus.events.Json;
import dev.agentbus.events.mcp.McpConfigException;
import dev.agentbus.events.mcp.McpServerConfig;
import dev.agentbus.events.mcp.McpToolNames;

import java.net.URI;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The one parser of MCP server configurations in the usual {@code mcpServers} format (Claude Desktop's, LMAgent's
 * {@code mcp.json}), shared by the sandbox-worker (the team's and the workspaces' files) and the gateway (a user's
 * own, {@code PUT /api/v1/me/mcp-servers}), so all three are read by the same rules. Here rather than in the
 * {@code events} module because checking a URL takes {@code java.net}, which the schema keeps out:
 * <pre>{"mcpServers": {"files": {"command": "mcp-server-filesystem", "args": ["/workspace"], "env": {}},
 *                 "search": {"url": "https://mcp.example.com/mcp", "headers": {"Authorization": "Bearer …"}}}}</pre>
 *
 * <p>Fields it does not know are ignored (as other clients of the format do). What a source may ask for differs:
 * <ul>
 *   <li>{@code team}: anything, including {@code trusted} (run on the worker host) and any http(s) URL;</li>
 *   <li>{@code user}: stdio servers (run in the session's sandbox) and remote servers at a plain http(s) URL
 *       (no user, query or fragment: the rules of a user's own model server), never {@code trusted};</li>
 *   <li>{@code workspace}: the agent's to write, so stdio servers only (a URL would make the worker itself connect
 *       wherever the file says), never {@code trusted}.</li>
 * </ul>
 */
public final class McpServersJson {
    /** The longest remote server URL a user may give (as for a user's model server). */
    public static final int MAX_USER_URL_CHARS = 500;

    private McpServersJson() {
    }

    /**
     * Parses one configuration; {@code where} names it in error messages.
     *
     * @param source {@link McpServerConfig#TEAM}, {@link McpServerConfig#USER} or {@link McpServerConfig#WORKSPACE}
     * @throws McpConfigException naming the server and what is wrong with it, never a secret
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
        boolean user = McpServerConfig.USER.equals(source);
        if (!team && trusted) {
            throw new McpConfigException(at + ": only the team's configuration (AGENTBUS_MCP_CONFIG) may mark a "
                    + "server trusted");
        }
        if (url != null) {
            if (!team && !user) {
                throw new McpConfigException(at + ": a workspace may configure stdio servers only (they run in the "
                        + "sandbox); remote servers belong in the team's configuration (AGENTBUS_MCP_CONFIG) or "
                        + "the user's own (PUT /api/v1/me/mcp-servers)");
            }
            url = user ? userUrl(url, at) : teamUrl(url, at);
        }
        if (command != null && command.isBlank()) {
            throw new McpConfigException(at + ": \"command\" is empty");
        }
        return new McpServerConfig(name, source, command, strings(node, "args", at), map(node, "env", at), url,
                map(node, "headers", at), trusted);
    }

    private static String teamUrl(String url, String at) {
        URI uri;
        try {
            uri = URI.create(url);
        } catch (IllegalArgumentException e) {
            throw new McpConfigException(at + ": \"url\" is not a URL: " + url);
        }
        if (!"http".equals(uri.getScheme()) && !"https".equals(uri.getScheme()) || uri.getHost() == null) {
            throw new McpConfigException(at + ": \"url\" must be an http or https URL, not " + url);
        }
        return url;
    }

    /**
     * A user's remote server: the worker connects to it, so only a plain http(s) URL with a host, as for a user's
     * own model server. Credentials belong in {@code headers} (sealed), never in the URL (shown, and in the state).
     */
    private static String userUrl(String text, String at) {
        String url = text.strip();
        if (url.isEmpty() || url.length() > MAX_USER_URL_CHARS) {
            throw new McpConfigException(at + ": \"url\" must be an http:// or https:// URL of at most "
                    + MAX_USER_URL_CHARS + " characters");
        }
        try {
            URI uri = URI.create(url);
            if (!("http".equals(uri.getScheme()) || "https".equals(uri.getScheme())) || uri.getHost() == null
                    || uri.getUserInfo() != null || uri.getQuery() != null || uri.getFragment() != null) {
                throw new IllegalArgumentException("not a plain http(s) URL");
            }
        } catch (IllegalArgumentException e) {
            // Not echoed: a URL with a user or a query may carry a credential.
            throw new McpConfigException(at + ": \"url\" must be a plain http:// or https:// URL with a host (no "
                    + "user, query or fragment; put credentials in \"headers\")");
        }
        return url;
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
