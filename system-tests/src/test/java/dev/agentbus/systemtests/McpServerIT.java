package dev.agentbus.systemtests;

import dev.agentbus.events.Json;
import dev.agentbus.events.session.SessionEvent.ToolCallRequested;
import dev.agentbus.gateway.GatewayApplication;
import io.micronaut.context.ApplicationContext;
import io.micronaut.runtime.server.EmbeddedServer;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.InitializeResult;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * The gateway as an MCP server, driven by the MCP Java SDK's own client over its streamable HTTP transport, on the
 * standalone stack with the scripted model server: a task in a new session answers with the agent's final answer,
 * the same session continues, the workspace tools read and write that session's files through the sandbox-worker, a
 * turn that needs an approval comes back saying so and {@code await_task} gets its answer once it is decided, a
 * turn longer than the wait comes back running, and another gateway replica answers for a task the first one
 * started. Users' keys keep them apart; a bad key is 401.
 */
class McpServerIT extends OnStandaloneStack {
    static final Duration WAIT = Duration.ofSeconds(60);
    static String adaKey;
    static String bobKey;

    @BeforeAll
    static void users() throws Exception {
        adaKey = TeamsIT.newUserKey("ada");
        bobKey = TeamsIT.newUserKey("bob");
    }

    @Test
    void a_task_runs_in_a_new_session_continues_in_it_and_its_workspace_is_reachable_through_the_tools()
            throws Exception {
        model.replyToolCall("write", "{\"path\":\"notes.md\",\"content\":\"hello from the agent\\n\"}")
                .replyText("I wrote notes.md.");
        try (McpSyncClient ada = client(adaKey)) {
            InitializeResult init = ada.initialize();
            assertThat(init.serverInfo().name()).isEqualTo("agentbus");
            assertThat(init.instructions()).contains("run_task");
            assertThat(ada.listTools().tools()).extracting(Tool::name).containsExactlyInAnyOrder("run_task",
                    "await_task", "list_sessions", "list_files", "read_file", "write_file", "run_command");

            CallToolResult first = call(ada, "run_task", Map.of("task", "write a note"));
            Map<String, Object> report = structured(first);
            assertThat(first.isError()).isFalse();
            assertThat(report).containsEntry("status", "completed").containsEntry("answer", "I wrote notes.md.");
            String id = (String) report.get("sessionId");
            assertThat(text(first)).startsWith("I wrote notes.md.").contains("session_id: " + id);

            assertThat(text(call(ada, "list_sessions", Map.of()))).contains(id).contains("write a note");
            assertThat(text(call(ada, "list_files", Map.of("session_id", id)))).contains("notes.md");
            assertThat(text(call(ada, "read_file", Map.of("session_id", id, "path", "notes.md"))))
                    .isEqualTo("hello from the agent\n");
            CallToolResult written = call(ada, "write_file", Map.of("session_id", id, "path", "src/plan.txt",
                    "content", "step 1\n"));
            assertThat(written.isError()).isFalse();
            assertThat(text(written)).contains("src/plan.txt");
            CallToolResult ran = call(ada, "run_command", Map.of("session_id", id, "command",
                    "cat src/plan.txt notes.md"));
            assertThat(ran.isError()).isFalse();
            assertThat(text(ran)).contains("step 1").contains("hello from the agent");
            assertThat(structured(ran)).containsEntry("exitCode", 0);
            CallToolResult failing = call(ada, "run_command", Map.of("session_id", id, "command", "exit 3"));
            assertThat(failing.isError()).as("a command that fails is a result marked as an error").isTrue();

            // The tools went the way of the workspace routes: people's tool calls in the session's log.
            GatewayClient adaHttp = new GatewayClient(stack.stack.gatewayUrl(), adaKey);
            assertThat(adaHttp.log(id).stream().map(e -> e.event()).filter(e -> e instanceof ToolCallRequested)
                    .map(e -> (ToolCallRequested) e).filter(ToolCallRequested::byUser).map(ToolCallRequested::name))
                    .contains("ls", "download", "write", "shell");
            assertThat(adaHttp.get("/api/v1/sessions/" + id + "/workspace/file?path=src/plan.txt").json()
                    .get("content").asText()).isEqualTo("step 1\n");

            model.replyText("Second answer.");
            Map<String, Object> second = structured(call(ada, "run_task", Map.of("task", "and now?",
                    "session_id", id)));
            assertThat(second).containsEntry("sessionId", id).containsEntry("answer", "Second answer.");
            assertThat(model.lastRequest().get("messages").toString()).as("the same conversation")
                    .contains("write a note").contains("I wrote notes.md.").contains("and now?");
        }
    }

    @Test
    void a_turn_that_needs_approval_returns_saying_so_and_await_task_answers_after_the_decision()
            throws Exception {
        GatewayClient adaHttp = new GatewayClient(stack.stack.gatewayUrl(), adaKey);
        String id = adaHttp.post("/api/v1/sessions", "{\"title\":\"careful\",\"mode\":\"normal\"}").json()
                .get("id").asText();
        model.replyToolCall("shell", "{\"command\":\"echo approved > approved.txt\"}").replyText("Done, approved.");
        try (McpSyncClient ada = client(adaKey)) {
            ada.initialize();

            CallToolResult waiting = call(ada, "run_task", Map.of("task", "run it", "session_id", id));

            Map<String, Object> report = structured(waiting);
            assertThat(report).containsEntry("status", "awaiting_approval").containsEntry("sessionId", id);
            @SuppressWarnings("unchecked")
            Map<String, Object> approval = ((List<Map<String, Object>>) report.get("approvals")).getFirst();
            assertThat(approval).containsEntry("tool", "shell");
            assertThat(text(waiting)).contains("approve").contains("await_task");
            assertThat(waiting.isError()).isFalse();
            Map<String, Object> stillWaiting = structured(call(ada, "await_task", Map.of("session_id", id,
                    "timeout_seconds", 1)));
            assertThat(stillWaiting).as("nobody decided within the wait").containsEntry("status", "awaiting_approval");

            assertThat(adaHttp.post("/api/v1/sessions/" + id + "/approvals/" + approval.get("callId"),
                    "{\"decision\":\"approve\"}").status()).isEqualTo(202);
            Map<String, Object> done = structured(call(ada, "await_task", Map.of("session_id", id,
                    "timeout_seconds", 60)));

            assertThat(done).containsEntry("status", "completed").containsEntry("answer", "Done, approved.");
            assertThat(text(call(ada, "read_file", Map.of("session_id", id, "path", "approved.txt"))))
                    .isEqualTo("approved\n");
        }
    }

    @Test
    void a_turn_longer_than_the_wait_comes_back_running_and_await_task_gets_its_answer() throws Exception {
        model.replyToolCall("shell", "{\"command\":\"sleep 3; echo slept\"}").replyText("I slept.");
        try (McpSyncClient ada = client(adaKey)) {
            ada.initialize();

            Map<String, Object> running = structured(call(ada, "run_task", Map.of("task", "take a nap",
                    "timeout_seconds", 1)));

            assertThat(running).containsEntry("status", "running");
            String id = (String) running.get("sessionId");
            McpError refused = catchThrowableOfType(McpError.class, () -> call(ada, "run_task",
                    Map.of("task", "another", "session_id", id)));
            assertThat(refused).as("a session whose turn runs takes no second task").isNotNull();
            assertThat(refused.getJsonRpcError().message()).contains("is running");
            assertThat(((Map<?, ?>) refused.getJsonRpcError().data()).get("status")).isEqualTo(409);
            Map<String, Object> done = structured(call(ada, "await_task", Map.of("session_id", id,
                    "timeout_seconds", 60)));
            assertThat(done).containsEntry("status", "completed").containsEntry("answer", "I slept.");
        }
    }

    @Test
    void a_user_reaches_only_their_own_sessions_and_a_bad_key_is_401() throws Exception {
        model.replyText("Ada's secret answer.");
        String adas;
        try (McpSyncClient ada = client(adaKey)) {
            ada.initialize();
            adas = (String) structured(call(ada, "run_task", Map.of("task", "ada's task"))).get("sessionId");
        }
        try (McpSyncClient bob = client(bobKey)) {
            bob.initialize();

            assertThat(text(call(bob, "list_sessions", Map.of()))).doesNotContain(adas);
            for (String tool : List.of("read_file", "list_files", "write_file", "run_command", "await_task",
                    "run_task")) {
                Map<String, Object> args = Map.of("session_id", adas, "path", "notes.md", "content", "x",
                        "command", "ls", "task", "steal");
                McpError onAdas = catchThrowableOfType(McpError.class, () -> call(bob, tool, args));
                Map<String, Object> missingArgs = new java.util.HashMap<>(args);
                String nothing = UUID.randomUUID().toString();
                missingArgs.put("session_id", nothing);
                McpError onNothing = catchThrowableOfType(McpError.class, () -> call(bob, tool, missingArgs));
                assertThat(onAdas).as(tool).isNotNull();
                assertThat(onAdas.getJsonRpcError().message()).as(tool).isEqualTo("no session " + adas);
                assertThat(onNothing.getJsonRpcError().message()).as(tool).isEqualTo("no session " + nothing);
                assertThat(onAdas.getJsonRpcError().data()).as(tool).isEqualTo(onNothing.getJsonRpcError().data());
            }
        }

        try (McpSyncClient stranger = client("ab_not-a-key")) {
            assertThatThrownBy(stranger::initialize).as("the SDK's client refused at the door");
        }
        GatewayClient.Response raw = stack.gateway.send(HttpRequest.newBuilder(URI.create(stack.stack.gatewayUrl()
                        + "/mcp")).header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString(toolsCall("list_sessions", Map.of()))).build());
        assertThat(raw.status()).isEqualTo(401);
        assertThat(raw.headers().get("WWW-Authenticate")).isNotNull();
        assertThat(raw.json().get("error").asText()).isEqualTo("unauthorized");
    }

    @Test
    void any_request_stands_alone_with_no_mcp_session_to_hand_out_or_keep() throws Exception {
        GatewayClient adaHttp = new GatewayClient(stack.stack.gatewayUrl(), adaKey);
        GatewayClient.Response init = adaHttp.send(mcp(adaHttp, """
                {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18",
                 "capabilities":{},"clientInfo":{"name":"curl","version":"1"}}}"""));
        assertThat(init.status()).isEqualTo(200);
        assertThat(init.headers().keySet()).noneMatch(h -> h.equalsIgnoreCase("Mcp-Session-Id"));

        // No initialize on this connection, no session id: a tool call on its own is answered (another replica
        // could have answered it just as well).
        GatewayClient.Response listed = adaHttp.send(mcp(adaHttp, toolsCall("list_sessions", Map.of())));
        assertThat(listed.status()).isEqualTo(200);
        assertThat(listed.json().at("/result/structuredContent/sessions").isArray()).isTrue();

        GatewayClient.Response stream = adaHttp.send(adaHttp.request("/mcp")
                .header("Accept", "text/event-stream").GET().build());
        assertThat(stream.status()).as("no server-to-client stream").isEqualTo(405);
        GatewayClient.Response garbage = adaHttp.send(mcp(adaHttp, "{not json"));
        assertThat(garbage.status()).isEqualTo(400);
        assertThat(garbage.json().at("/error/code").asInt()).isEqualTo(-32700);
    }

    /**
     * A second gateway on the same broker and database, as a replica in a deployment runs: a task started through
     * one is awaited through the other, by a request that never said initialize to it.
     */
    @Test
    void another_gateway_replica_answers_for_a_task_started_through_the_first() throws Exception {
        Map<String, Object> props = new java.util.HashMap<>(GatewayApplication.properties());
        props.putAll(Map.of("agentbus.kafka.bootstrap-servers", stack.stack.bootstrapServers(),
                "agentbus.data-dir", dataDir.toString(), "agentbus.db.url", stack.stack.databaseUrl(),
                "agentbus.db.user", stack.stack.databaseUser(), "agentbus.db.password", stack.stack.databasePassword(),
                "agentbus.gateway.port", "-1",
                "agentbus.gateway.token", StandaloneStack.TOKEN, "agentbus.kafka.partitions", "2"));
        model.replyToolCall("shell", "{\"command\":\"sleep 2; echo rested\"}").replyText("Rested.");
        try (ApplicationContext replica = ApplicationContext.builder().properties(props).start();
             McpSyncClient first = client(adaKey)) {
            replica.getBean(EmbeddedServer.class).start();
            GatewayClient other = new GatewayClient(replica.getBean(EmbeddedServer.class).getURL().toString(), adaKey);
            first.initialize();

            Map<String, Object> running = structured(call(first, "run_task", Map.of("task", "rest a moment",
                    "timeout_seconds", 1)));
            assertThat(running).containsEntry("status", "running");
            GatewayClient.Response done = other.send(mcp(other, toolsCall("await_task",
                    Map.of("session_id", running.get("sessionId"), "timeout_seconds", 60))));

            assertThat(done.status()).as(done.body()).isEqualTo(200);
            assertThat(done.json().at("/result/structuredContent/status").asText()).isEqualTo("completed");
            assertThat(done.json().at("/result/structuredContent/answer").asText()).isEqualTo("Rested.");
        }
    }

    static McpSyncClient client(String key) {
        var transport = HttpClientStreamableHttpTransport.builder(stack.stack.gatewayUrl()).endpoint("/mcp")
                .requestBuilder(HttpRequest.newBuilder().header("Authorization", "Bearer " + key)).build();
        return McpClient.sync(transport).requestTimeout(Duration.ofSeconds(90)).build();
    }

    static CallToolResult call(McpSyncClient client, String tool, Map<String, Object> arguments) {
        return client.callTool(new CallToolRequest(tool, arguments));
    }

    static String text(CallToolResult result) {
        return ((TextContent) result.content().getFirst()).text();
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> structured(CallToolResult result) {
        assertThat(result.structuredContent()).as(text(result)).isInstanceOf(Map.class);
        return (Map<String, Object>) result.structuredContent();
    }

    static HttpRequest mcp(GatewayClient client, String body) {
        return client.request("/mcp").header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build();
    }

    static String toolsCall(String tool, Map<String, Object> arguments) throws Exception {
        return Json.mapper().writeValueAsString(Map.of("jsonrpc", "2.0", "id", 2, "method", "tools/call",
                "params", Map.of("name", tool, "arguments", arguments)));
    }
}
