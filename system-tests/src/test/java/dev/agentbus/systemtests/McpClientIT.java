package dev.agentbus.systemtests;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentbus.events.session.EventEnvelope;
import dev.agentbus.events.session.SessionEvent.McpToolsListed;
import dev.agentbus.events.session.SessionEvent.ToolCallCompleted;
import dev.agentbus.events.session.SessionEvent.ToolCallStarted;
import dev.agentbus.events.session.SessionEvent.TurnEnded;
import dev.agentbus.events.session.TurnOutcome;
import dev.agentbus.testkit.Poll;
import dev.agentbus.testkit.mcp.NpmMcpServers;
import dev.agentbus.testkit.model.ScriptedModelServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The MCP client end to end on the standalone stack (real broker, PostgreSQL, the five services) with the scripted
 * model server and the real MCP servers from npm: {@code server-everything} over stdio (in bubblewrap) and over
 * streamable HTTP with an auth header, {@code server-filesystem} over stdio on the session's workspace. The model
 * sees and calls {@code mcp__<server>__<tool>}; the state shows the live servers; a server killed between two turns
 * is started again by the next call and the session finishes; the auth header appears nowhere a client can read.
 */
class McpClientIT {
    static final Duration WAIT = Duration.ofSeconds(90);
    static final String SECRET = "e2e-secret-token-4711";

    @TempDir
    static Path dataDir;
    static ScriptedModelServer model;
    static StandaloneStack stack;
    static Process httpServer;

    @BeforeAll
    static void start() throws Exception {
        NpmMcpServers npm = NpmMcpServers.installed();
        int port;
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort();
        }
        ProcessBuilder http = new ProcessBuilder(npm.everything().toString(), "streamableHttp")
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD);
        http.environment().put("PORT", Integer.toString(port));
        httpServer = http.start();
        awaitPort(port);
        String team = """
                {"mcpServers": {
                  "everything": {"command": "%s"},
                  "files": {"command": "%s", "args": ["/workspace"]},
                  "remote": {"url": "http://127.0.0.1:%d/mcp", "headers": {"Authorization": "Bearer %s"}}
                }}""".formatted(npm.everything(), npm.filesystem(), port, SECRET);
        model = ScriptedModelServer.start();
        stack = new StandaloneStack(dataDir, model, Map.of(
                "agentbus.mcp.config", team,
                "agentbus.mcp.package-dirs", npm.prefix().toString()));
    }

    @AfterAll
    static void stop() {
        if (stack != null) {
            stack.close();
        }
        if (model != null) {
            model.close();
        }
        if (httpServer != null) {
            httpServer.destroyForcibly();
        }
    }

    @Test
    void the_model_calls_mcp_tools_through_the_bus_and_a_killed_server_is_restarted_by_the_next_call()
            throws Exception {
        GatewayClient gw = stack.gateway;
        String id = gw.createSession("MCP");
        gw.awaitLog(id, e -> e.event() instanceof McpToolsListed, WAIT);

        JsonNode state = gw.get("/api/v1/sessions/" + id).json();
        JsonNode servers = state.get("mcpServers");
        assertThat(servers).as(state.toPrettyString()).hasSize(3);
        for (JsonNode server : servers) {
            assertThat(server.get("live").asBoolean()).as(server.toString()).isTrue();
        }
        assertThat(servers.get(0).get("tools").findValuesAsText("name")).contains("mcp__everything__echo");
        assertThat(servers.get(1).get("tools").findValuesAsText("name")).contains("mcp__files__write_file");
        assertThat(servers.get(2).get("transport").asText()).isEqualTo("http");

        // Turn 1: an echo over stdio and one over streamable HTTP.
        model.replyToolCall("mcp__everything__echo", "{\"message\":\"hello over stdio\"}")
                .replyToolCall("mcp__remote__echo", "{\"message\":\"hello over http\"}")
                .replyText("Both echoed.");
        gw.postMessage(id, "echo twice");
        gw.awaitLog(id, e -> e.event() instanceof TurnEnded, WAIT);
        List<ToolCallCompleted> first = results(gw.log(id));
        assertThat(first).hasSize(2).allMatch(ToolCallCompleted::ok);
        assertThat(first.get(0).output()).contains("hello over stdio");
        assertThat(first.get(1).output()).contains("hello over http");
        JsonNode offered = model.requests().getFirst().get("tools");
        assertThat(offered.findValuesAsText("name")).contains("read", "shell", "mcp__everything__echo",
                "mcp__files__read_text_file", "mcp__remote__get-sum");

        // The stdio server dies between the turns; the next call starts it again.
        killServerSandboxesOf(stack.workspace(id));
        model.replyToolCall("mcp__everything__get-sum", "{\"a\":20,\"b\":22}")
                .replyToolCall("mcp__files__write_file",
                        "{\"path\":\"/workspace/report.txt\",\"content\":\"written by an MCP server\"}")
                .replyText("Done.");
        gw.postMessage(id, "add and write");
        Poll.until("the second turn ended", WAIT,
                () -> gw.log(id).stream().filter(e -> e.event() instanceof TurnEnded).count() == 2);

        List<EventEnvelope> log = gw.log(id);
        TurnEnded last = (TurnEnded) log.stream().map(EventEnvelope::event).filter(e -> e instanceof TurnEnded)
                .reduce((a, b) -> b).orElseThrow();
        assertThat(last.outcome()).isEqualTo(TurnOutcome.COMPLETED);
        List<ToolCallCompleted> all = results(log);
        assertThat(all).hasSize(4);
        assertThat(all.get(2).ok()).as(all.get(2).error()).isTrue();
        assertThat(all.get(2).output()).contains("42");
        assertThat(all.get(3).ok()).as(all.get(3).error()).isTrue();
        assertThat(stack.workspace(id).resolve("report.txt")).hasContent("written by an MCP server");
        assertThat(log.stream().filter(e -> e.event() instanceof ToolCallStarted).count())
                .as("a call that may change things is started once, like any sandbox call").isGreaterThanOrEqualTo(3);

        // The header is the worker's alone: not in the log, the state, or what the model was sent.
        assertThat(gw.get("/api/v1/sessions/" + id + "/log").body()).doesNotContain(SECRET);
        assertThat(gw.get("/api/v1/sessions/" + id).body()).doesNotContain(SECRET);
        assertThat(model.requests().toString()).doesNotContain(SECRET);
    }

    private static List<ToolCallCompleted> results(List<EventEnvelope> log) {
        return log.stream().map(EventEnvelope::event).filter(e -> e instanceof ToolCallCompleted)
                .map(ToolCallCompleted.class::cast).toList();
    }

    /** Kills the bubblewrap sandboxes this JVM started for MCP servers of this workspace: the servers die with them. */
    private static void killServerSandboxesOf(Path workspace) throws Exception {
        List<ProcessHandle> sandboxes = ProcessHandle.current().descendants()
                .filter(p -> p.info().commandLine().map(c -> c.contains("bwrap") && c.contains("--setenv")
                        && c.contains(workspace.toString()) && c.contains("mcp-server")).orElse(false)).toList();
        assertThat(sandboxes).as("the MCP servers' sandboxes").isNotEmpty();
        for (ProcessHandle p : sandboxes) {
            p.destroyForcibly();
            p.onExit().get(10, TimeUnit.SECONDS);
        }
    }

    private static void awaitPort(int port) throws InterruptedException {
        Poll.until("the HTTP MCP server listens on " + port, WAIT, () -> {
            try (Socket ignored = new Socket("127.0.0.1", port)) {
                return true;
            } catch (IOException e) {
                return false;
            }
        });
    }
}
