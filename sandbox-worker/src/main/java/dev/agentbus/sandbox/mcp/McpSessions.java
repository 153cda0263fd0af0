package dev.agentbus.sandbox.mcp;

import dev.agentbus.events.mcp.McpConfigException;
import dev.agentbus.events.mcp.McpServerConfig;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import dev.agentbus.events.Json;
import dev.agentbus.events.mcp.McpServerView;
import dev.agentbus.events.mcp.McpToolNames;
import dev.agentbus.events.mcp.McpToolView;
import dev.agentbus.eventbus.outgoing.OutgoingPolicy;
import dev.agentbus.sandbox.tools.ToolOutcome;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpAsyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * The MCP servers of the sessions this worker serves: started when a session is first seen (or at its first call
 * after this worker took it on), listed, called, and restarted when one has died. A session's servers are the
 * team's, its owner's own ({@link UserMcpConfigs}) and its workspace's, merged by {@link McpConfig#merge}; when the
 * owner changes theirs, the sessions of that user this worker serves are started and listed again. A server is a tool provider like
 * the built-in tools: the worker runs its calls, in the session's sandbox, at most once.
 *
 * <p>Whenever the servers of a session were (re)started and what they offer differs from what this worker last
 * reported for it, a {@link Listing} is queued for the runner to send as {@code record_mcp_tools.v1}.
 *
 * <p>A call to a server that died is never repeated: a call that fails because the server went away is answered
 * with an error (the call may or may not have taken effect there), the dead client is dropped, and the next call
 * starts the server again. A call to a server found dead before the call (it does not answer a ping) restarts it
 * first, since nothing was sent yet.
 */
public final class McpSessions implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(McpSessions.class);

    /** A session's servers and tools to record. */
    public record Listing(String userId, String sessionId, String causationId, List<McpServerView> servers) {
    }

    private final List<McpServerConfig> team;
    private final UserMcpConfigs.Lookup users;
    private final McpLauncher launcher;
    /** How long a server may take to answer a ping before it counts as dead and is started again. */
    private static final Duration PING_TIMEOUT = Duration.ofSeconds(5);

    private final Duration timeout;
    private final int outputCapBytes;
    private final Map<String, SessionServers> sessions = new ConcurrentHashMap<>();
    private final ConcurrentLinkedQueue<Listing> listings = new ConcurrentLinkedQueue<>();

    /** The worker's: its settings, with stdio servers sandboxed by the bubblewrap of {@code bwrapSetting}. */
    public static McpSessions of(McpSettings settings, UserMcpConfigs.Lookup users, String bwrapSetting,
                                 int outputCapBytes, OutgoingPolicy outgoing) {
        Duration timeout = Duration.ofSeconds(settings.requestTimeoutSeconds());
        return new McpSessions(settings.teamServers(), users, new McpLauncher(bwrapSetting, settings.packagePaths(),
                settings.network(), timeout, outgoing), timeout, outputCapBytes);
    }

    McpSessions(List<McpServerConfig> team, McpLauncher launcher, Duration timeout, int outputCapBytes) {
        this(team, UserMcpConfigs.NONE, launcher, timeout, outputCapBytes);
    }

    McpSessions(List<McpServerConfig> team, UserMcpConfigs.Lookup users, McpLauncher launcher, Duration timeout,
                int outputCapBytes) {
        this.team = List.copyOf(team);
        this.users = users;
        this.launcher = launcher;
        this.timeout = timeout;
        this.outputCapBytes = outputCapBytes;
    }

    /** The listings waiting to be recorded, taken out of the queue. */
    public List<Listing> takeListings() {
        List<Listing> out = new ArrayList<>();
        for (Listing l; (l = listings.poll()) != null; ) {
            out.add(l);
        }
        return out;
    }

    /**
     * Starts the session's servers (those not running yet) and lists their tools; queues a listing when it differs
     * from the last one reported. Never throws: a server that cannot start is listed as not live, with the reason.
     */
    public List<McpServerView> start(String userId, String sessionId, Path workspace, String causationId) {
        SessionServers s = sessions.computeIfAbsent(sessionId, id -> new SessionServers());
        synchronized (s) {
            List<McpServerView> views = new ArrayList<>();
            s.workspaceFile = workspaceFileText(workspace);
            s.userId = userId;
            s.workspace = workspace;
            s.causationId = causationId;
            List<McpServerConfig> user;
            try {
                user = users.of(userId);
            } catch (McpConfigException e) {
                // The user's servers cannot be opened: the others still run, and the state says why.
                user = List.of();
                views.add(new McpServerView("user", "stdio", McpServerConfig.USER, false, e.getMessage(), List.of()));
            }
            List<McpServerConfig> inWorkspace;
            try {
                inWorkspace = McpConfig.workspace(workspace);
            } catch (McpConfigException | IOException e) {
                // The workspace's file is wrong: the other servers still run, and the state says what is wrong.
                inWorkspace = List.of();
                views.add(new McpServerView("workspace", "stdio", McpServerConfig.WORKSPACE, false,
                        e.getMessage(), List.of()));
            }
            List<McpServerConfig> configs = McpConfig.merge(team, user, inWorkspace);
            for (McpServerConfig config : configs) {
                views.add(s.running(config, workspace).view());
            }
            // Servers no longer configured (the workspace's file changed) are stopped.
            List<String> names = configs.stream().map(McpServerConfig::name).toList();
            List.copyOf(s.live.keySet()).stream().filter(n -> !names.contains(n)).forEach(s::drop);
            s.views = views;
            if (!views.equals(s.reported)) {
                s.reported = views;
                listings.add(new Listing(userId, sessionId, causationId, views));
            }
            return views;
        }
    }

    /**
     * After a call that may have changed files: when the workspace's {@code .mcp.json} (or {@code mcp.json}) is not
     * what the servers were started from, they are started and listed again.
     */
    public void workspaceMayHaveChanged(String userId, String sessionId, Path workspace, String causationId) {
        SessionServers s = sessions.get(sessionId);
        String now = workspaceFileText(workspace);
        if (s == null ? now != null : !java.util.Objects.equals(now, s.workspaceFile)) {
            start(userId, sessionId, workspace, causationId);
        }
    }

    private static String workspaceFileText(Path workspace) {
        for (String name : McpConfig.WORKSPACE_FILES) {
            Path file = workspace.resolve(name);
            if (java.nio.file.Files.isRegularFile(file, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
                try {
                    return name + "\n" + java.nio.file.Files.readString(file);
                } catch (IOException e) {
                    return name;
                }
            }
        }
        return null;
    }

    /**
     * Whether a session of {@code userId} has servers whatever its workspace holds: the team's or the user's own
     * (then its workspace is worth creating to start them in).
     */
    public boolean hasServersBeyondWorkspace(String userId) {
        if (!team.isEmpty()) {
            return true;
        }
        try {
            return !users.of(userId).isEmpty();
        } catch (McpConfigException e) {
            return true; // so the listing reports why they cannot be used
        }
    }

    /** Whether a session of {@code userId} has MCP servers configured at all (the team's, the user's, its workspace's). */
    public boolean configured(String userId, Path workspace) {
        if (hasServersBeyondWorkspace(userId)) {
            return true;
        }
        try {
            return !McpConfig.workspace(workspace).isEmpty();
        } catch (McpConfigException | IOException e) {
            return true; // so the listing reports what is wrong with the file
        }
    }

    /**
     * The user changed their own servers: each of their sessions this worker has started servers for is started
     * and listed again (off the caller's thread; starting a server may take seconds), so the change reaches the
     * model at its next turn. Sessions never started here get them when they are.
     */
    public void userChanged(String userId) {
        sessions.forEach((sessionId, s) -> {
            if (userId.equals(s.userId) && s.workspace != null) {
                Thread.ofVirtual().name("mcp-user-change-" + sessionId).start(() -> {
                    try {
                        if (sessions.get(sessionId) == s) {
                            start(userId, sessionId, s.workspace, s.causationId);
                        }
                    } catch (RuntimeException e) {
                        LOG.warn("session {}: its MCP servers could not be started again: {}", sessionId,
                                e.toString());
                    }
                });
            }
        });
    }

    /** Runs the tool the model calls {@code name}; never throws. */
    public ToolOutcome call(String userId, String sessionId, Path workspace, String name, JsonNode args,
                            String causationId) {
        String server = McpToolNames.serverOf(name).orElse("");
        SessionServers s = sessions.computeIfAbsent(sessionId, id -> new SessionServers());
        synchronized (s) {
            Live live = s.live.get(server);
            if (live != null && live.client != null && !live.answers()) {
                LOG.warn("session {}: MCP server {} does not answer; restarting it", sessionId, server);
                s.drop(server);
            }
            if (s.live.get(server) == null || s.live.get(server).client == null) {
                start(userId, sessionId, workspace, causationId);
            }
            live = s.live.get(server);
            if (live == null) {
                return ToolOutcome.failure("no MCP server '" + server + "' is configured for this session");
            }
            if (live.client == null) {
                String why = live.error;
                s.drop(server); // tried again at the next call
                return ToolOutcome.failure("the MCP server '" + server + "' is not running: " + why);
            }
            Optional<McpToolView> tool = live.tools.stream().filter(t -> t.name().equals(name)).findFirst();
            if (tool.isEmpty()) {
                return ToolOutcome.failure("the MCP server '" + server + "' has no tool " + name + "; its tools are "
                        + live.tools.stream().map(McpToolView::name).toList());
            }
            try {
                Map<String, Object> arguments = Json.mapper().convertValue(args, new TypeReference<>() { });
                McpSchema.CallToolResult result = live.client.callTool(
                        new McpSchema.CallToolRequest(tool.get().tool(), arguments == null ? Map.of() : arguments))
                        .block();
                return McpResults.outcome(result, outputCapBytes);
            } catch (RuntimeException e) {
                LOG.warn("session {}: MCP server {} failed during a call of {}: {}", sessionId, server, name,
                        e.toString());
                s.drop(server);
                return ToolOutcome.failure("the MCP server '" + server + "' failed during the call ("
                        + McpResults.failure(live.config, e)
                        + "); it was not called again, so it may or may not have done it. The server is started "
                        + "again at the next call");
            }
        }
    }

    /** Stops the session's servers (deleted, or its partition left this worker). */
    public void stop(String sessionId) {
        SessionServers s = sessions.remove(sessionId);
        if (s != null) {
            synchronized (s) {
                List.copyOf(s.live.keySet()).forEach(s::drop);
            }
        }
    }

    @Override
    public void close() {
        List.copyOf(sessions.keySet()).forEach(this::stop);
    }

    /** One server of one session: a client and its tools, or why there is none. */
    private final class Live {
        final McpServerConfig config;
        final McpAsyncClient client;
        final List<McpToolView> tools;
        final String error;

        Live(McpServerConfig config, McpAsyncClient client, List<McpToolView> tools, String error) {
            this.config = config;
            this.client = client;
            this.tools = tools;
            this.error = error;
        }

        boolean answers() {
            try {
                // Not the request time-out: a server that died leaves its request unanswered, not failed.
                client.ping().block(PING_TIMEOUT);
                return true;
            } catch (RuntimeException e) {
                return false;
            }
        }

        McpServerView view() {
            return new McpServerView(config.name(), config.transport(), config.source(), client != null, error,
                    tools);
        }
    }

    private final class SessionServers {
        final Map<String, Live> live = new LinkedHashMap<>();
        List<McpServerView> views = List.of();
        List<McpServerView> reported;
        String workspaceFile;
        /** The session's owner, workspace and the event its servers were first started for (for a re-listing). */
        volatile String userId;
        volatile Path workspace;
        volatile String causationId;

        /** The server's client, started if it is not running. */
        Live running(McpServerConfig config, Path workspace) {
            Live existing = live.get(config.name());
            if (existing != null && existing.client != null && existing.config.equals(config)) {
                return existing;
            }
            drop(config.name());
            Live started = launch(config, workspace);
            live.put(config.name(), started);
            return started;
        }

        void drop(String server) {
            Live l = live.remove(server);
            if (l != null && l.client != null) {
                try {
                    l.client.closeGracefully().block(PING_TIMEOUT);
                } catch (RuntimeException e) {
                    l.client.close();
                }
            }
        }
    }

    private Live launch(McpServerConfig config, Path workspace) {
        McpAsyncClient client = null;
        try {
            client = McpClient.async(launcher.transport(config, workspace)).requestTimeout(timeout)
                    .initializationTimeout(timeout)
                    .clientInfo(new McpSchema.Implementation("agentbus", "0.1.0")).build();
            client.initialize().block();
            List<McpToolView> tools = new ArrayList<>();
            String cursor = null;
            do {
                McpSchema.ListToolsResult page = (cursor == null ? client.listTools() : client.listTools(cursor))
                        .block();
                for (McpSchema.Tool t : page.tools()) {
                    tools.add(new McpToolView(McpToolNames.of(config.name(), t.name()), t.name(), t.description(),
                            t.inputSchema() == null ? null : Json.mapper().writeValueAsString(t.inputSchema()),
                            t.annotations() != null && Boolean.TRUE.equals(t.annotations().readOnlyHint())));
                }
                cursor = page.nextCursor();
            } while (cursor != null && !cursor.isEmpty());
            LOG.info("{} is live with {} tools", config, tools.size());
            return new Live(config, client, List.copyOf(tools), null);
        } catch (Exception e) {
            LOG.warn("{} could not be started: {}", config, e.toString());
            if (client != null) {
                client.close();
            }
            return new Live(config, null, List.of(), "could not start or list it: " + McpResults.failure(config, e));
        }
    }
}
