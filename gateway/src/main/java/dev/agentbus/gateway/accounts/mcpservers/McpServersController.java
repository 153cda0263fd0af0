package dev.agentbus.gateway.accounts.mcpservers;

import dev.agentbus.api.ApiJson;
import dev.agentbus.api.accounts.McpServers;
import dev.agentbus.eventbus.secrets.SecretBox;
import dev.agentbus.events.Json;
import dev.agentbus.events.mcp.McpConfigException;
import dev.agentbus.events.mcp.McpServerConfig;
import dev.agentbus.eventbus.mcp.McpServersJson;
import dev.agentbus.events.mcp.UserMcpServers;
import dev.agentbus.gateway.accounts.auditing.AccountEvents;
import dev.agentbus.gateway.errors.ApiException;
import dev.agentbus.gateway.readmodels.ReadModelDatabase;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Consumes;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Delete;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.Produces;
import io.micronaut.http.annotation.Put;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

import static dev.agentbus.gateway.auth.Callers.addressOf;
import static dev.agentbus.gateway.auth.Callers.userOf;

/**
 * The caller's own MCP servers: {@code PUT /api/v1/me/mcp-servers} with the usual {@code {"mcpServers": {...}}}
 * (read by the same parser and rules as the team's and the workspaces' files, {@link McpServersJson}, as a
 * {@code user} source: stdio or plain http(s) URLs, never {@code trusted}), {@code GET} (every {@code env} and
 * {@code headers} value shown as {@code ***}), {@code DELETE} (none). The values are sealed here, before they leave
 * the gateway ({@link SecretBox}, bound to the user id), and opened only by the sandbox-worker when it starts the
 * servers in the user's sessions. A PUT replaces the whole configuration.
 */
@Controller("/api/v1/me/mcp-servers")
@ExecuteOn(TaskExecutors.BLOCKING)
class McpServersController {
    /** The most servers one user may configure: each one is a process (or a connection) in every session. */
    static final int MAX_SERVERS = 20;
    static final int MAX_BODY_BYTES = 64 * 1024;
    private static final String WHERE = "mcpServers";

    private final UserMcpServerStore store;
    private final SecretBox secrets;
    private final ReadModelDatabase database;
    private final Clock clock = Clock.systemUTC();

    McpServersController(UserMcpServerStore store, SecretBox secrets, ReadModelDatabase database) {
        this.store = store;
        this.secrets = secrets;
        this.database = database;
    }

    @Get
    @Produces(MediaType.APPLICATION_JSON)
    public String get(HttpRequest<?> request) {
        return ApiJson.write(answer(store.of(userOf(request))));
    }

    @Put
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public String put(@Body @Nullable String body, HttpRequest<?> request) throws InterruptedException {
        String user = userOf(request);
        List<McpServerConfig> servers = parse(body);
        if (servers.isEmpty()) {
            return delete(request);
        }
        Instant now = clock.instant();
        Optional<UserMcpServers> before = store.of(user);
        UserMcpServers record = new UserMcpServers(user,
                servers.stream().map(s -> sealed(s, before, user)).toList(),
                before.map(UserMcpServers::version).orElse(0L) + 1, now);
        if (!store.put(record)) {
            throw new ApiException(HttpStatus.SERVICE_UNAVAILABLE, "the change was written but not read back within "
                    + "10 s; it applies when Kafka catches up");
        }
        Map<String, Object> audited = new LinkedHashMap<>();
        // Names and where they run, never a value of env or headers.
        servers.forEach(s -> audited.put(s.name(), s.stdio() ? "stdio: " + s.command() : "http: " + s.url()));
        audit(request, now, Map.of("mcpServers", audited));
        return ApiJson.write(answer(Optional.of(record)));
    }

    @Delete
    @Produces(MediaType.APPLICATION_JSON)
    public String delete(HttpRequest<?> request) throws InterruptedException {
        String user = userOf(request);
        if (store.of(user).isPresent()) {
            if (!store.remove(user)) {
                throw new ApiException(HttpStatus.SERVICE_UNAVAILABLE, "the change was written but not read back "
                        + "within 10 s; it applies when Kafka catches up");
            }
            audit(request, clock.instant(), Map.of("mcpServers", Map.of()));
        }
        return ApiJson.write(McpServers.none());
    }

    /**
     * The server with its env and headers values sealed. A value sent back as {@code ***} (as GET shows it) keeps the
     * value sealed before for the same server and name, so a person can change a server's other values without typing
     * its key again; {@code ***} where nothing was kept is a 400, never a secret of three stars. A secret stays with
     * where it was sent: when the server's command, arguments or URL change, {@code ***} is a 400 too, or a saved
     * token would go to the new destination without its owner typing it.
     */
    private McpServerConfig sealed(McpServerConfig server, Optional<UserMcpServers> before, String user) {
        Optional<McpServerConfig> old = before.flatMap(b -> b.servers().stream()
                .filter(o -> o.name().equals(server.name())).findFirst());
        boolean moved = old.isPresent() && !sameDestination(old.get(), server);
        return new McpServerConfig(server.name(), server.source(), server.command(), server.args(),
                sealedValues(server.name(), "env", server.env(), old.map(McpServerConfig::env), moved, user),
                server.url(),
                sealedValues(server.name(), "headers", server.headers(), old.map(McpServerConfig::headers), moved,
                        user),
                server.trusted());
    }

    /** Where the secrets go: the process (command and arguments) a stdio server runs, or the URL of an HTTP one. */
    private static boolean sameDestination(McpServerConfig a, McpServerConfig b) {
        return Objects.equals(a.command(), b.command()) && Objects.equals(a.args(), b.args())
                && Objects.equals(a.url(), b.url());
    }

    private Map<String, String> sealedValues(String server, String where, Map<String, String> values,
                                             Optional<Map<String, String>> kept, boolean moved, String user) {
        Map<String, String> out = new LinkedHashMap<>();
        values.forEach((name, value) -> {
            if (!McpServers.HIDDEN.equals(value)) {
                out.put(name, secrets.seal(value, user));
            } else if (kept.isPresent() && kept.get().containsKey(name) && moved) {
                throw ApiException.badRequest(where + " " + name + " of server " + server + " is \"***\", but its "
                        + "command, arguments or url changed: a saved value stays with where it was sent, type it "
                        + "again");
            } else if (kept.isPresent() && kept.get().containsKey(name)) {
                out.put(name, kept.get().get(name));
            } else {
                throw ApiException.badRequest(where + " " + name + " of server " + server + " is \"***\", but no "
                        + "value was saved for it before: type the value itself");
            }
        });
        return out;
    }

    /** The servers of the body, by the rules of a user's configuration; a 400 naming the problem otherwise. */
    static List<McpServerConfig> parse(String body) {
        if (body == null || body.isBlank()) {
            throw ApiException.badRequest("the body must be {\"mcpServers\": {\"<name>\": {\"command\": …} or "
                    + "{\"url\": …}}}");
        }
        if (body.getBytes(StandardCharsets.UTF_8).length > MAX_BODY_BYTES) {
            throw ApiException.badRequest("the configuration must be at most " + MAX_BODY_BYTES + " bytes");
        }
        List<McpServerConfig> servers;
        try {
            servers = McpServersJson.parse(body, McpServerConfig.USER, WHERE);
        } catch (McpConfigException e) {
            throw ApiException.badRequest(e.getMessage());
        }
        try {
            if (!Json.mapper().readTree(body).has("mcpServers")) {
                throw ApiException.badRequest("the body needs \"mcpServers\" (an empty object for none)");
            }
        } catch (IOException e) {
            throw ApiException.badRequest("the body is not valid JSON");
        }
        if (servers.size() > MAX_SERVERS) {
            throw ApiException.badRequest("at most " + MAX_SERVERS + " MCP servers, not " + servers.size());
        }
        return servers;
    }

    /** The change in the account audit, when there is a database; never a value of env or headers. */
    private void audit(HttpRequest<?> request, Instant now, Map<String, ?> details) {
        if (database.configured()) {
            database.query(c -> {
                AccountEvents.append(c, now, AccountEvents.MCP_SERVERS_CHANGED, userOf(request), userOf(request),
                        addressOf(request), details);
                return null;
            });
        }
    }

    /** The configuration as given, every value of env and headers hidden. */
    static McpServers answer(Optional<UserMcpServers> record) {
        if (record.isEmpty()) {
            return McpServers.none();
        }
        Map<String, McpServers.Server> servers = new LinkedHashMap<>();
        for (McpServerConfig s : record.get().servers()) {
            McpServerConfig hidden = s.withSecrets((name, value) -> McpServers.HIDDEN);
            servers.put(s.name(), new McpServers.Server(hidden.command(), hidden.args(), hidden.env(), hidden.url(),
                    hidden.headers()));
        }
        return new McpServers(true, servers, record.get().version(), record.get().updatedAt());
    }
}
