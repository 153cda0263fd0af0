package dev.agentbus.sandbox.mcp;

import dev.agentbus.events.mcp.McpServerConfig;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentbus.events.Json;
import dev.agentbus.events.mcp.McpServerView;
import dev.agentbus.events.mcp.McpToolView;
import dev.agentbus.sandbox.tools.ToolOutcome;
import dev.agentbus.testkit.mcp.NpmMcpServers;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The MCP client against the real servers from npm ({@link NpmMcpServers}): stdio servers started in bubblewrap with
 * the session's workspace, a streamable-HTTP server, a server that dies between two calls, and workspace
 * configurations that ask for more than a workspace may.
 */
class McpSessionsIT {
    static NpmMcpServers npm;

    @TempDir
    Path workspace;
    McpSessions sessions;
    final List<Process> started = new ArrayList<>();

    @BeforeAll
    static void install() {
        npm = NpmMcpServers.installed();
    }

    @AfterEach
    void stop() {
        if (sessions != null) {
            sessions.close();
        }
        started.forEach(Process::destroyForcibly);
    }

    private McpSessions sessions(String teamJson) {
        sessions = new McpSessions(McpConfig.team(teamJson), new McpLauncher("bwrap", List.of(npm.prefix()), false,
                Duration.ofSeconds(30)), Duration.ofSeconds(30), 65536);
        return sessions;
    }

    private static JsonNode args(String json) throws IOException {
        return Json.mapper().readTree(json);
    }

    @Test
    void a_stdio_server_runs_in_the_sandbox_with_its_own_environment_and_its_tools_are_named_for_the_model()
            throws Exception {
        McpSessions s = sessions("""
                {"mcpServers": {"everything": {"command": "%s", "env": {"GREETING": "hello from the config"}}}}"""
                .formatted(npm.everything()));

        List<McpServerView> views = s.start("u1", "s1", workspace, "cause-1");

        assertThat(views).hasSize(1);
        McpServerView everything = views.getFirst();
        assertThat(everything.live()).as(everything.error()).isTrue();
        assertThat(everything.transport()).isEqualTo("stdio");
        assertThat(everything.source()).isEqualTo("team");
        assertThat(everything.tools()).extracting(McpToolView::name)
                .contains("mcp__everything__echo", "mcp__everything__get-sum", "mcp__everything__get-env");
        assertThat(everything.tools()).filteredOn(t -> t.name().equals("mcp__everything__echo")).first()
                .satisfies(t -> {
                    assertThat(t.tool()).isEqualTo("echo");
                    assertThat(t.readOnly()).isTrue();
                    assertThat(Json.mapper().readTree(t.parametersSchema()).path("properties").has("message"))
                            .isTrue();
                });
        assertThat(s.takeListings()).singleElement().satisfies(l -> {
            assertThat(l.sessionId()).isEqualTo("s1");
            assertThat(l.servers()).isEqualTo(views);
        });

        ToolOutcome echo = s.call("u1", "s1", workspace, "mcp__everything__echo", args("{\"message\":\"hi\"}"), "c");
        assertThat(echo.ok()).as(echo.error()).isTrue();
        assertThat(echo.output()).contains("hi");

        ToolOutcome sum = s.call("u1", "s1", workspace, "mcp__everything__get-sum", args("{\"a\":2,\"b\":40}"), "c");
        assertThat(sum.output()).contains("42");

        // Inside the sandbox: its own configured variable, the sandbox's HOME and PATH, none of the worker's.
        ToolOutcome env = s.call("u1", "s1", workspace, "mcp__everything__get-env", args("{}"), "c");
        assertThat(env.output()).contains("hello from the config").contains("\"HOME\": \"/workspace\"")
                .doesNotContain(System.getProperty("user.home") + "\"");
        assertThat(System.getenv()).containsKey("PATH");
        assertThat(env.output()).doesNotContain(System.getenv("PATH") + "\"");
    }

    @Test
    void the_filesystem_server_works_on_the_sessions_workspace_and_nothing_else() throws Exception {
        McpSessions s = sessions("""
                {"mcpServers": {"files": {"command": "%s", "args": ["/workspace"]}}}""".formatted(npm.filesystem()));
        assertThat(s.start("u1", "s1", workspace, "c").getFirst().live()).isTrue();

        ToolOutcome write = s.call("u1", "s1", workspace, "mcp__files__write_file",
                args("{\"path\":\"/workspace/notes.txt\",\"content\":\"written through MCP\"}"), "c");
        assertThat(write.ok()).as(write.error()).isTrue();
        assertThat(workspace.resolve("notes.txt")).hasContent("written through MCP");

        ToolOutcome outside = s.call("u1", "s1", workspace, "mcp__files__read_text_file",
                args("{\"path\":\"/etc/shadow\"}"), "c");
        assertThat(outside.ok()).isFalse();
        assertThat(outside.error()).containsIgnoringCase("denied");
    }

    @Test
    void a_server_that_died_is_started_again_at_the_next_call_and_a_call_it_died_in_is_not_repeated()
            throws Exception {
        McpSessions s = sessions("""
                {"mcpServers": {"everything": {"command": "%s"}}}""".formatted(npm.everything()));
        s.start("u1", "s1", workspace, "c");
        s.takeListings();
        assertThat(s.call("u1", "s1", workspace, "mcp__everything__echo", args("{\"message\":\"one\"}"), "c").ok())
                .isTrue();

        killServersOf(workspace);

        ToolOutcome again = s.call("u1", "s1", workspace, "mcp__everything__echo", args("{\"message\":\"two\"}"),
                "c");
        assertThat(again.ok()).as(again.error()).isTrue();
        assertThat(again.output()).contains("two");
        assertThat(s.takeListings()).as("same tools after the restart: nothing new to record").isEmpty();
    }

    @Test
    void a_streamable_http_server_is_reached_with_its_configured_headers() throws Exception {
        int port;
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort();
        }
        ProcessBuilder pb = new ProcessBuilder(npm.everything().toString(), "streamableHttp").redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD);
        pb.environment().put("PORT", Integer.toString(port));
        started.add(pb.start());
        awaitPort(port);
        McpSessions s = sessions("""
                {"mcpServers": {"remote": {"url": "http://127.0.0.1:%d/mcp",
                                           "headers": {"Authorization": "Bearer not-a-real-token"}}}}""".formatted(port));

        McpServerView remote = s.start("u1", "s1", workspace, "c").getFirst();

        assertThat(remote.live()).as(remote.error()).isTrue();
        assertThat(remote.transport()).isEqualTo("http");
        assertThat(remote.toString()).doesNotContain("not-a-real-token");
        ToolOutcome echo = s.call("u1", "s1", workspace, "mcp__remote__echo", args("{\"message\":\"far away\"}"), "c");
        assertThat(echo.output()).contains("far away");
    }

    @Test
    void a_workspace_may_add_stdio_servers_but_no_remote_or_trusted_ones() throws Exception {
        McpSessions s = sessions("");
        Files.writeString(workspace.resolve(".mcp.json"), """
                {"mcpServers": {"mine": {"command": "%s"}}}""".formatted(npm.everything()));
        assertThat(s.configured("u", workspace)).isTrue();
        McpServerView mine = s.start("u1", "s1", workspace, "c").getFirst();
        assertThat(mine.live()).as(mine.error()).isTrue();
        assertThat(mine.source()).isEqualTo("workspace");

        Files.writeString(workspace.resolve(".mcp.json"), """
                {"mcpServers": {"far": {"url": "http://127.0.0.1:9/mcp"}}}""");
        s.workspaceMayHaveChanged("u1", "s1", workspace, "c");
        List<McpServerView> views = s.takeListings().getLast().servers();
        assertThat(views).singleElement().satisfies(v -> {
            assertThat(v.live()).isFalse();
            assertThat(v.error()).contains("a workspace may configure stdio servers only");
        });
        assertThat(s.call("u1", "s1", workspace, "mcp__mine__echo", args("{\"message\":\"x\"}"), "c").error())
                .contains("no MCP server 'mine'");
    }

    /** Kills the bubblewrap sandboxes this JVM started for servers of this workspace (and so the servers in them). */
    private static void killServersOf(Path workspace) throws Exception {
        List<ProcessHandle> sandboxes = ProcessHandle.current().descendants()
                .filter(p -> p.info().commandLine().map(c -> c.contains("bwrap") && c.contains(workspace.toString()))
                        .orElse(false)).toList();
        assertThat(sandboxes).as("the server's sandbox process").isNotEmpty();
        for (ProcessHandle p : sandboxes) {
            p.destroyForcibly();
            p.onExit().get(10, TimeUnit.SECONDS);
        }
    }

    private static void awaitPort(int port) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline) {
            try (Socket ignored = new Socket("127.0.0.1", port)) {
                return;
            } catch (IOException e) {
                Thread.sleep(20); // polls the condition; the listing comes from another thread
                Thread.sleep(50); // polling a port until it opens; the condition decides, not the sleep
            }
        }
        throw new AssertionError("the HTTP MCP server did not open port " + port);
    }

    @Test
    void a_users_own_servers_join_the_teams_in_the_users_sessions_only_and_a_change_is_listed_again()
            throws Exception {
        String everything = npm.everything().toString();
        java.util.Map<String, List<McpServerConfig>> byUser = new java.util.concurrent.ConcurrentHashMap<>();
        byUser.put("ada", McpConfig.parse("""
                {"mcpServers": {"team-one": {"command": "/nonexistent"}, "mine": {"command": "%s",
                                "env": {"ADA_TOKEN": "sk-ada"}}}}""".formatted(everything),
                McpServerConfig.USER, "mcpServers"));
        sessions = new McpSessions(McpConfig.team("""
                {"mcpServers": {"team-one": {"command": "%s"}}}""".formatted(everything)),
                userId -> byUser.getOrDefault(userId, List.of()),
                new McpLauncher("bwrap", List.of(npm.prefix()), false, Duration.ofSeconds(30)),
                Duration.ofSeconds(30), 65536);

        List<McpServerView> adas = sessions.start("ada", "s-ada", workspace, "cause-1");
        // The team's server keeps its name; Ada's own comes after it.
        assertThat(adas).extracting(McpServerView::name).containsExactly("team-one", "mine");
        assertThat(adas).extracting(McpServerView::source).containsExactly("team", "user");
        assertThat(adas).allMatch(McpServerView::live);
        ToolOutcome env = sessions.call("ada", "s-ada", workspace, "mcp__mine__get-env", args("{}"), "c");
        assertThat(env.output()).contains("sk-ada");
        assertThat(adas.toString()).doesNotContain("sk-ada");

        Path bobsWorkspace = Files.createDirectories(workspace.resolveSibling(workspace.getFileName() + "-bob"));
        assertThat(sessions.start("bob", "s-bob", bobsWorkspace, "cause-2")).extracting(McpServerView::name)
                .containsExactly("team-one");
        assertThat(sessions.hasServersBeyondWorkspace("bob")).isTrue();
        sessions.takeListings();

        // Ada drops her server: her session is listed again without it, Bob's is not touched.
        byUser.put("ada", List.of());
        sessions.userChanged("ada");
        List<McpSessions.Listing> relisted = new ArrayList<>();
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (relisted.isEmpty() && System.nanoTime() < deadline) {
            relisted.addAll(sessions.takeListings());
            Thread.sleep(20); // polls the condition; the listing comes from another thread
        }
        assertThat(relisted).as("ada's session listed again").singleElement().satisfies(l -> {
            assertThat(l.sessionId()).isEqualTo("s-ada");
            assertThat(l.causationId()).isEqualTo("cause-1");
            assertThat(l.servers()).extracting(McpServerView::name).containsExactly("team-one");
        });

        // Servers whose values do not open: listed as not live with the reason, the others still run.
        sessions.close();
        sessions = new McpSessions(List.of(), userId -> {
            throw new dev.agentbus.events.mcp.McpConfigException("the user's MCP servers cannot be used: a sealed "
                    + "value that does not open");
        }, new McpLauncher("bwrap", List.of(npm.prefix()), false, Duration.ofSeconds(30)), Duration.ofSeconds(30),
                65536);
        assertThat(sessions.hasServersBeyondWorkspace("ada")).as("so the reason gets listed").isTrue();
        McpServerView broken = sessions.start("ada", "s-ada", workspace, "cause-4").getFirst();
        assertThat(broken.name()).isEqualTo("user");
        assertThat(broken.live()).isFalse();
        assertThat(broken.error()).contains("does not open");
    }
}
