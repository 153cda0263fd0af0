package dev.agentbus.gateway.websocket;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentbus.broker.EmbeddedKafkaBroker;
import dev.agentbus.eventbus.KafkaSettings;
import dev.agentbus.events.Json;
import dev.agentbus.events.input.InputEnvelope;
import dev.agentbus.events.input.SessionInput;
import dev.agentbus.events.session.SessionEvent;
import dev.agentbus.gateway.readmodels.Await;
import dev.agentbus.gateway.readmodels.TestGateway;
import dev.agentbus.gateway.sessions.SessionDirectory;
import dev.agentbus.gateway.workspace.FakeAgentHost;
import dev.agentbus.testkit.websocket.SocketClient;
import io.micronaut.context.ApplicationContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

import java.net.http.WebSocketHandshakeException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.CompletionException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@code /ws} against a real broker and a real gateway application context, with a real WebSocket client. The
 * orchestrator, the sandbox-worker and the memory-service are played by {@link FakeAgentHost} on the real topics,
 * because the gateway module may not depend on them; it answers in their wire formats, so what is tested here is the
 * gateway's part: authentication of the upgrade, frames, limits, each command becoming its input, and the answers.
 * The whole stack is driven through {@code /ws} by the system test {@code WebSocketIT}.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class WebSocketApiIT {
    private static final String TOKEN = TestGateway.TOKEN;
    private static final int MAX_UPLOAD = 100_000;
    private static final int MAX_TEXT = 200_000;

    private EmbeddedKafkaBroker broker;
    private ApplicationContext gateway;
    private FakeAgentHost host;
    private String url;

    @BeforeAll
    void start(@TempDir Path dir) {
        broker = EmbeddedKafkaBroker.builder().dataDir(dir.resolve("kafka")).build();
        broker.start();
        // The gateway as TestGateway starts it (its own token), with this test's limits.
        TestGateway started = new TestGateway(broker.bootstrapServers(), dir.resolve("data"), null,
                Map.<String, Object>of("agentbus.gateway.files.timeout-seconds", "5", "agentbus.gateway.files.max-bytes", String.valueOf(MAX_UPLOAD), "agentbus.gateway.websocket.max-text-bytes", String.valueOf(MAX_TEXT)));
        gateway = started.context();
        url = started.url();
        host = new FakeAgentHost(new KafkaSettings(broker.bootstrapServers(), 3, "ws-test"));
    }

    @AfterAll
    void stop() throws Exception {
        if (host != null) {
            host.close();
        }
        if (gateway != null) {
            gateway.close();
        }
        if (broker != null) {
            broker.close();
        }
    }

    /** A new idle session of the token's user, as the gateway sees it. */
    private String session() throws InterruptedException {
        return session("local");
    }

    private String session(String owner) throws InterruptedException {
        String id = UUID.randomUUID().toString();
        host.createSession(id, owner);
        assertThat(gateway.getBean(SessionDirectory.class).awaitSession(id, Duration.ofSeconds(10))).isTrue();
        return id;
    }

    private SocketClient open(String session) throws InterruptedException {
        SocketClient client = SocketClient.withToken(url, "session=" + session, TOKEN);
        JsonNode ready = client.ready();
        assertThat(ready.path("sessionId").asText()).isEqualTo(session);
        return client;
    }

    private List<InputEnvelope> inputs(String session) {
        return host.inputs.stream().filter(i -> i.sessionId().equals(session)).toList();
    }

    @Test
    void an_upgrade_without_a_credential_or_with_a_wrong_one_is_refused_with_401() {
        for (Map<String, String> headers : List.of(Map.<String, String>of(),
                Map.of("Authorization", "Bearer not-the-token"), Map.of("Cookie", "agentbus_login=ls_forged"))) {
            assertThatThrownBy(() -> SocketClient.connect(url, null, headers))
                    .isInstanceOf(CompletionException.class)
                    .cause().isInstanceOfSatisfying(WebSocketHandshakeException.class,
                            e -> assertThat(e.getResponse().statusCode()).as(headers.toString()).isEqualTo(401));
        }
    }

    @Test
    void a_plain_http_request_is_told_to_upgrade() throws Exception {
        var http = java.net.http.HttpClient.newHttpClient();
        var response = http.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create(url + "/ws"))
                .header("Authorization", "Bearer " + TOKEN).GET().build(),
                java.net.http.HttpResponse.BodyHandlers.ofString());

        assertThat(response.statusCode()).isEqualTo(426);
        assertThat(response.headers().firstValue("Upgrade")).contains("websocket");
        assertThat(Json.mapper().readTree(response.body()).path("error").asText()).isEqualTo("upgrade_required");
    }

    @Test
    void without_a_session_parameter_a_new_session_of_the_caller_is_created() throws Exception {
        try (SocketClient client = SocketClient.withToken(url, null, TOKEN)) {
            JsonNode ready = client.ready();

            String id = ready.path("sessionId").asText();
            assertThat(ready.path("userId").asText()).isEqualTo("local");
            assertThat(ready.path("maxUploadBytes").asInt()).isEqualTo(MAX_UPLOAD);
            assertThat(ready.path("maxTextBytes").asInt()).isEqualTo(MAX_TEXT);
            assertThat(ready.path("commands").toString()).contains("chat", "vm_execute_stream", "get_memory");
            assertThat(inputs(id)).extracting(InputEnvelope::input).singleElement()
                    .isInstanceOf(SessionInput.CreateSession.class);
            assertThat(gateway.getBean(SessionDirectory.class).state(id)).isPresent();
        }
    }

    @Test
    void a_session_that_is_missing_or_someone_elses_closes_the_connection_with_4404() throws Exception {
        String bobs = session("bob");
        for (String wanted : List.of(UUID.randomUUID().toString(), bobs)) {
            try (SocketClient client = SocketClient.withToken(url, "session=" + wanted, TOKEN)) {
                JsonNode error = client.next();

                assertThat(error.path("type").asText()).isEqualTo("error");
                assertThat(error.path("error").asText()).isEqualTo("not_found");
                assertThat(error.path("message").asText()).isEqualTo("no session " + wanted);
                assertThat(client.awaitClose().getKey()).isEqualTo(4404);
            }
        }
    }

    @Test
    void chat_streams_the_turn_and_ends_with_the_whole_answer() throws Exception {
        String session = session();
        try (SocketClient client = open(session)) {
            client.command("c1", "chat", Map.of("prompt", "hi"));

            List<JsonNode> messages = client.until(m -> m.path("type").asText().equals("result"));

            JsonNode result = messages.getLast();
            assertThat(result.path("id").asText()).isEqualTo("c1");
            assertThat(result.path("command").asText()).isEqualTo("chat");
            assertThat(result.path("result").asText()).isEqualTo(FakeAgentHost.REPLY);
            assertThat(result.path("finishReason").asText()).isEqualTo("stop");
            StringBuilder streamed = new StringBuilder();
            messages.stream().filter(m -> m.path("type").asText().equals("delta")).forEach(m -> {
                assertThat(m.path("id").asText()).isEqualTo("c1");
                assertThat(m.path("stream").asText()).isEqualTo("content");
                streamed.append(m.path("text").asText());
            });
            assertThat(streamed.toString()).as("deltas, completed from the event").isEqualTo(FakeAgentHost.REPLY);
            assertThat(inputs(session)).extracting(InputEnvelope::input)
                    .containsExactly(new SessionInput.PostUserMessage("hi"));
        }
    }

    @Test
    void a_plain_text_message_is_a_chat_and_a_busy_session_answers_conflict() throws Exception {
        String session = session();
        try (SocketClient client = open(session)) {
            client.send("Hello");
            JsonNode result = client.until(m -> m.path("type").asText().equals("result")).getLast();
            assertThat(result.path("command").asText()).isEqualTo("chat");
            assertThat(result.has("id")).isFalse();
            assertThat(inputs(session)).extracting(InputEnvelope::input)
                    .contains(new SessionInput.PostUserMessage("Hello"));

            host.append(session, null, new SessionEvent.UserMessagePosted("someone else's turn"));
            Await.until("the gateway's view has the turn", Duration.ofSeconds(10), () -> gateway
                    .getBean(SessionDirectory.class).state(session).map(st -> !st.acceptsUserTool()).orElse(false));
            client.command("w1", "write_file", Map.of("path", "a.txt", "content", "x"));
            JsonNode busy = client.answer("w1");
            assertThat(busy.path("error").asText()).isEqualTo("conflict");
            assertThat(busy.path("message").asText()).isEqualTo("session " + session
                    + " is running; files can be written once the turn has ended");
        }
    }

    @Test
    void files_are_written_read_listed_downloaded_and_deleted_as_tool_calls_of_a_person() throws Exception {
        String session = session();
        try (SocketClient client = open(session)) {
            client.command("w", "write_file", Map.of("path", "notes/hello.txt", "content", "hi there\n"));
            JsonNode written = client.answer("w");
            assertThat(written.path("result").asText()).isEqualTo("Saved");
            assertThat(written.path("callId").asText()).startsWith("user-");
            assertThat(written.path("output").asText()).isEqualTo("created notes/hello.txt");

            client.command("r", "read_file", Map.of("path", "notes/hello.txt"));
            assertThat(client.answer("r").path("result").asText()).isEqualTo("hi there\n");

            client.command("l", "list_dir", Map.of());
            assertThat(client.answer("l").path("result").toString()).isEqualTo("[[\"notes\",true]]");

            client.command("d", "download_file", Map.of("path", "notes/hello.txt"));
            JsonNode download = client.answer("d").path("result");
            assertThat(download.path("file_name").asText()).isEqualTo("hello.txt");
            assertThat(Base64.getDecoder().decode(download.path("file_data").asText()))
                    .isEqualTo("hi there\n".getBytes(StandardCharsets.UTF_8));
            assertThat(download.path("sha256").asText())
                    .isEqualTo(FakeAgentHost.sha256("hi there\n".getBytes(StandardCharsets.UTF_8)));

            client.command("x", "delete_path", Map.of("path", "notes/hello.txt"));
            assertThat(client.answer("x").path("result").asText()).isEqualTo("Deleted");
            client.command("x2", "delete_path", Map.of("path", "notes/hello.txt"));
            JsonNode gone = client.answer("x2");
            assertThat(gone.path("error").asText()).isEqualTo("not_found");
            assertThat(gone.path("message").asText()).isEqualTo("no such file or directory: notes/hello.txt");

            client.command("esc", "read_file", Map.of("path", "../../etc/passwd"));
            JsonNode refused = client.answer("esc");
            assertThat(refused.path("error").asText()).isEqualTo("forbidden");
            assertThat(refused.path("message").asText()).isEqualTo("'../../etc/passwd' is outside the workspace");

            assertThat(inputs(session)).extracting(InputEnvelope::input)
                    .allSatisfy(i -> assertThat(i).isInstanceOf(SessionInput.RunUserTool.class))
                    .extracting(i -> ((SessionInput.RunUserTool) i).name())
                    .containsExactly("write", "download", "ls", "download", "delete", "delete", "download");
        }
    }

    @Test
    void uploads_arrive_byte_for_byte_as_base64_or_as_a_binary_message_and_are_listed_as_documents()
            throws Exception {
        String session = session();
        byte[] content = new byte[50_000];
        new Random(7).nextBytes(content);
        try (SocketClient client = open(session)) {
            client.command("b64", "upload_document", Map.of("file_name", "in/a.bin",
                    "file_data", Base64.getEncoder().encodeToString(content)));
            JsonNode first = client.answer("b64");
            assertThat(first.path("result").asText()).isEqualTo("in/a.bin");

            client.sendBinary(BinaryUploads.message("{\"command\":\"upload_document\",\"file_name\":\"b.bin\",\"id\":7}", content));
            JsonNode second = client.answer("7");
            assertThat(second.path("id").isNumber()).as("the id comes back as it was sent").isTrue();
            assertThat(second.path("result").asText()).isEqualTo("b.bin");
            assertThat(second.path("output").asText()).isEqualTo("uploaded b.bin (50000 bytes)");

            assertThat(host.files.get(session).get("in/a.bin")).isEqualTo(content);
            assertThat(host.files.get(session).get("b.bin")).isEqualTo(content);

            client.command("docs", "list_documents", Map.of());
            JsonNode documents = client.answer("docs").path("result");
            assertThat(documents.findValuesAsText("file_path")).contains("in/a.bin", "b.bin");
            assertThat(documents.findValuesAsText("original_name")).contains("a.bin", "b.bin");

            client.command("hp", "upload_document", Map.of("file_path", "/etc/hosts"));
            assertThat(client.answer("hp").path("message").asText()).startsWith("file_path names a file on the "
                    + "server's host");
        }
    }

    @Test
    void a_malformed_binary_message_is_answered_and_the_connection_stays_open() throws Exception {
        String session = session();
        try (SocketClient client = open(session)) {
            client.sendBinary(new byte[]{0, 0});
            assertThat(client.next().path("message").asText()).contains("only 2 bytes");
            client.sendBinary(ByteBuffer.allocate(8).putInt(1000).putInt(0).array());
            assertThat(client.next().path("message").asText()).contains("announce a header of 1000 bytes");
            client.sendBinary(BinaryUploads.message("{\"command\":\"write_file\",\"id\":\"q\"}", new byte[3]));
            JsonNode wrong = client.next();
            assertThat(wrong.path("id").asText()).isEqualTo("q");
            assertThat(wrong.path("message").asText()).contains("must be upload_document");

            client.command("ok", "list_dir", Map.of());
            assertThat(client.answer("ok").path("type").asText()).isEqualTo("result");
            assertThat(inputs(session)).hasSize(1);
        }
    }

    @Test
    void malformed_json_an_unknown_command_and_bad_arguments_are_errors_and_the_connection_stays_open()
            throws Exception {
        String session = session();
        try (SocketClient client = open(session)) {
            client.send("{\"command\": \"list_dir\", ");
            JsonNode malformed = client.next();
            assertThat(malformed.path("type").asText()).isEqualTo("error");
            assertThat(malformed.path("error").asText()).isEqualTo("bad_request");
            assertThat(malformed.path("message").asText()).startsWith("the message starts with '{' but is not valid "
                    + "JSON");

            client.command("u1", "format_disk", Map.of());
            JsonNode unknown = client.answer("u1");
            assertThat(unknown.path("error").asText()).isEqualTo("unknown_command");
            assertThat(unknown.path("command").asText()).isEqualTo("format_disk");
            assertThat(unknown.path("message").asText()).contains("chat", "vm_execute");

            client.send("{\"id\":\"a1\",\"command\":\"read_file\",\"args\":[1]}");
            assertThat(client.answer("a1").path("message").asText()).isEqualTo("args must be a JSON object");
            client.command("a2", "read_file", Map.of("path", 5));
            assertThat(client.answer("a2").path("message").asText()).isEqualTo("path must be a string");
            client.command("a3", "write_file", Map.of("path", "x"));
            assertThat(client.answer("a3").path("message").asText()).isEqualTo("content is required (a string)");

            client.sendFragments("{\"id\":\"f\",\"command\":", "\"list_dir\"}");
            assertThat(client.answer("f").path("type").asText()).as("fragments are joined").isEqualTo("result");
            assertThat(client.closed).isNotDone();
        }
    }

    @Test
    void a_text_message_over_the_limit_is_answered_and_closed_with_1009_and_nothing_is_sent() throws Exception {
        String session = session();
        try (SocketClient client = open(session)) {
            client.command("big", "write_file", Map.of("path", "big.txt", "content", "x".repeat(MAX_TEXT)));

            JsonNode error = client.next();
            assertThat(error.path("error").asText()).isEqualTo("request_entity_too_large");
            assertThat(error.path("message").asText()).contains("text messages are at most " + MAX_TEXT + " bytes");
            assertThat(client.awaitClose().getKey()).isEqualTo(1009);
        }
        assertThat(inputs(session)).isEmpty();
    }

    @Test
    void a_binary_upload_over_the_limit_is_answered_and_closed_with_1009_and_nothing_is_sent() throws Exception {
        String session = session();
        try (SocketClient client = open(session)) {
            client.sendBinary(BinaryUploads.message("{\"command\":\"upload_document\",\"file_name\":\"huge.bin\"}",
                    new byte[MAX_UPLOAD + Frames.MAX_HEADER_BYTES + 1]));

            assertThat(client.next().path("error").asText()).isEqualTo("request_entity_too_large");
            assertThat(client.awaitClose().getKey()).isEqualTo(1009);
        }
        assertThat(inputs(session)).isEmpty();
    }

    @Test
    void a_file_just_over_the_upload_limit_is_refused_with_413_and_the_connection_stays_open() throws Exception {
        String session = session();
        try (SocketClient client = open(session)) {
            client.sendBinary(BinaryUploads.message("{\"command\":\"upload_document\",\"file_name\":\"big.bin\",\"id\":\"u\"}",
                    new byte[MAX_UPLOAD + 1]));

            JsonNode error = client.answer("u");
            assertThat(error.path("error").asText()).isEqualTo("request_entity_too_large");
            assertThat(error.path("message").asText()).isEqualTo("the file is " + (MAX_UPLOAD + 1)
                    + " bytes; uploads are at most " + MAX_UPLOAD + " bytes");
            assertThat(client.closed).isNotDone();
        }
        assertThat(inputs(session)).isEmpty();
    }

    @Test
    void commands_run_in_the_sandbox_whole_or_streamed_line_by_line() throws Exception {
        String session = session();
        try (SocketClient client = open(session)) {
            client.command("e", "vm_execute", Map.of("command", "echo hi", "timeout", 5));
            JsonNode whole = client.answer("e");
            assertThat(whole.path("result").asText()).isEqualTo("line one\nline two\nexit code: 0");
            assertThat(whole.path("exitCode").asInt()).isEqualTo(0);
            SessionInput.RunUserTool shell = (SessionInput.RunUserTool) inputs(session).getLast().input();
            assertThat(shell.name()).isEqualTo("shell");
            assertThat(Json.mapper().readTree(shell.arguments()).path("timeout_seconds").asInt()).isEqualTo(5);

            client.command("s", "vm_execute_stream", Map.of("command", "echo hi"));
            List<JsonNode> streamed = client.until(m -> m.path("type").asText().equals("result"));
            assertThat(streamed.stream().filter(m -> m.path("type").asText().equals("delta"))
                    .map(m -> m.path("stream").asText() + ":" + m.path("text").asText()))
                    .containsExactly("output:line one\n", "output:line two\n");

            client.command("t", "vm_execute", Map.of("command", "sleep 5"));
            JsonNode timedOut = client.answer("t");
            assertThat(timedOut.path("error").asText()).isEqualTo("command_failed");
            assertThat(timedOut.path("message").asText()).startsWith("command timed out");
            assertThat(timedOut.path("output").asText()).isEqualTo("started\n");
        }
    }

    @Test
    void the_terminal_is_reached_through_the_tmux_tools() throws Exception {
        String session = session();
        try (SocketClient client = open(session)) {
            client.command("i", "vm_execute_stream", Map.of("command", "python3 ask.py", "interactive", true));
            JsonNode started = client.answer("i");
            assertThat(started.path("result").asText()).isEqualTo("started");
            assertThat(started.path("output").asText()).contains("in pane agentbus:1.0");

            client.command("in", "vm_input", Map.of("data", "Ada\n"));
            JsonNode typed = client.answer("in");
            assertThat(typed.path("result").asText()).isEqualTo("ok");
            assertThat(typed.path("output").asText()).startsWith("typed 3 characters and Enter");

            client.command("k", "vm_keys", Map.of("keys", List.of("C-c")));
            assertThat(client.answer("k").path("output").asText()).startsWith("pressed C-c");
            client.command("k2", "vm_keys", Map.of("data", "ls"));
            assertThat(client.answer("k2").path("output").asText()).startsWith("typed 2 characters into");

            client.command("rt", "restart_terminal", Map.of());
            assertThat(client.answer("rt").path("result").asText()).isEqualTo("restarted");

            assertThat(inputs(session)).extracting(i -> ((SessionInput.RunUserTool) i.input()).name())
                    .containsExactly("tmux_new", "vm_input", "vm_keys", "vm_input", "restart_terminal");
        }
    }

    @Test
    void memory_is_read_set_and_reset_through_the_memory_service() throws Exception {
        String session = session();
        try (SocketClient client = open(session)) {
            client.command("s", "set_memory", Map.of("memory", "Prefers tea."));
            assertThat(client.answer("s").path("result").asText()).isEqualTo("Prefers tea.");
            client.command("g", "get_memory", Map.of());
            assertThat(client.answer("g").path("result").asText()).isEqualTo("Prefers tea.");
            client.command("r", "reset_memory", Map.of());
            assertThat(client.answer("r").path("result").asText()).isEmpty();
        }
    }

    @Test
    void a_notification_is_recorded_and_reaches_every_connection_on_the_session() throws Exception {
        String session = session();
        try (SocketClient sender = open(session); SocketClient follower = open(session)) {
            sender.command("n", "send_notification", Map.of("message", "Report ready"));
            assertThat(sender.answer("n").path("result").asText()).isEqualTo("ok");

            JsonNode note = follower.next();
            assertThat(note.path("type").asText()).isEqualTo("notification");
            assertThat(note.path("message").asText()).isEqualTo("Report ready");
            assertThat(note.path("sessionId").asText()).isEqualTo(session);
            assertThat(note.path("sentBy").asText()).isEqualTo("local");
            assertThat(inputs(session)).extracting(InputEnvelope::input)
                    .containsExactly(new SessionInput.PostNotification("Report ready"));
        }
    }

    @Test
    void sessions_are_listed_with_their_last_message() throws Exception {
        String session = session();
        host.append(session, null, new SessionEvent.UserMessagePosted("the last thing said"));
        long ended = host.append(session, null, new SessionEvent.TurnEnded(
                dev.agentbus.events.session.TurnOutcome.CANCELLED, null, "x"));
        String other = session("bob");
        Await.until("the gateway's view has the ended turn", Duration.ofSeconds(10), () -> gateway
                .getBean(SessionDirectory.class).state(session).map(st -> st.lastSeq() >= ended).orElse(false));
        try (SocketClient client = open(session)) {
            client.command("l", "list_sessions", Map.of());
            JsonNode ids = client.answer("l").path("result");
            assertThat(ids.toString()).contains(session).doesNotContain(other);

            client.command("i", "list_sessions_info", Map.of());
            JsonNode info = client.answer("i").path("result");
            JsonNode mine = null;
            for (JsonNode entry : info) {
                if (entry.path("name").asText().equals(session)) {
                    mine = entry;
                }
            }
            assertThat(mine).isNotNull();
            assertThat(mine.path("last_message").asText()).isEqualTo("the last thing said");
        }
    }

    @Test
    void no_worker_answer_in_time_is_gateway_timeout_saying_the_request_is_recorded() throws Exception {
        String session = session();
        host.silent.add(session);
        try (SocketClient client = open(session)) {
            client.command("slow", "list_dir", Map.of());
            JsonNode late = client.answer("slow");
            assertThat(late.path("error").asText()).isEqualTo("gateway_timeout");
            assertThat(late.path("message").asText()).startsWith("no sandbox-worker answered within 5 s");
        }
    }
}
