package dev.agentbus.systemtests;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentbus.events.session.EventEnvelope;
import dev.agentbus.events.session.SessionEvent.NotificationPosted;
import dev.agentbus.events.session.SessionEvent.ToolCallRequested;
import dev.agentbus.testkit.Poll;
import dev.agentbus.testkit.websocket.SocketClient;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The WebSocket API (docs/websocket.md) on the whole standalone stack: the real orchestrator with the scripted model,
 * the real sandbox-worker and its sandbox, the real memory-service. What a client does over {@code /ws} lands in the
 * session's log as it would over HTTP.
 */
class WebSocketIT extends OnStandaloneStack {

    private static SocketClient open(String query) throws InterruptedException {
        SocketClient client = SocketClient.withToken(stack.stack.gatewayUrl(), query, StandaloneStack.TOKEN);
        client.ready();
        return client;
    }

    @Test
    void a_chat_streams_the_agents_turn_and_the_answer_is_in_the_log() throws Exception {
        model.replyToolCall("write", "{\"path\":\"hello.txt\",\"content\":\"hi\\n\"}").replyText("I wrote hello.txt.");
        try (SocketClient client = SocketClient.withToken(stack.stack.gatewayUrl(), null, StandaloneStack.TOKEN)) {
            String session = client.ready().path("sessionId").asText();

            client.command("c", "chat", Map.of("prompt", "write hello.txt"));
            List<JsonNode> turn = client.until(m -> m.path("type").asText().equals("result"));

            assertThat(turn.getLast().path("result").asText()).isEqualTo("I wrote hello.txt.");
            assertThat(turn).filteredOn(m -> m.path("stream").asText().equals("reasoning"))
                    .as("the tool call is shown as reasoning").isNotEmpty();
            assertThat(Files.readString(stack.workspace(session).resolve("hello.txt"))).isEqualTo("hi\n");
            assertThat(stack.gateway.log(session)).extracting(EventEnvelope::event)
                    .filteredOn(ToolCallRequested.class::isInstance).hasSize(1);
        }
    }

    @Test
    void files_and_commands_run_in_the_real_sandbox_as_a_persons_tool_calls() throws Exception {
        String session = stack.gateway.createSession("ws files");
        byte[] bytes = new byte[20_000];
        new Random(3).nextBytes(bytes);
        try (SocketClient client = open("session=" + session)) {
            client.command("w", "write_file", Map.of("path", "src/notes.md", "content", "# notes\n"));
            assertThat(client.answer("w").path("result").asText()).isEqualTo("Saved");

            byte[] header = "{\"command\":\"upload_document\",\"file_name\":\"data/blob.bin\",\"id\":\"u\"}"
                    .getBytes(StandardCharsets.UTF_8);
            client.sendBinary(ByteBuffer.allocate(4 + header.length + bytes.length).putInt(header.length)
                    .put(header).put(bytes).array());
            assertThat(client.answer("u").path("result").asText()).isEqualTo("data/blob.bin");
            assertThat(Files.readAllBytes(stack.workspace(session).resolve("data/blob.bin"))).isEqualTo(bytes);

            client.command("l", "list_dir", Map.of());
            assertThat(client.answer("l").path("result").toString()).isEqualTo("[[\"data\",true],[\"src\",true]]");

            client.command("d", "download_file", Map.of("path", "data/blob.bin"));
            assertThat(Base64.getDecoder().decode(client.answer("d").path("result").path("file_data").asText()))
                    .isEqualTo(bytes);

            client.command("s", "vm_execute_stream", Map.of("command", "cat src/notes.md; echo done"));
            List<JsonNode> run = client.until(m -> m.path("id").asText().equals("s")
                    && !m.path("type").asText().equals("delta"));
            assertThat(run.getLast().path("exitCode").asInt()).as(run.toString()).isZero();
            assertThat(run).filteredOn(m -> m.path("type").asText().equals("delta"))
                    .extracting(m -> m.path("text").asText()).containsExactly("# notes\n", "done\n");

            client.command("x", "delete_path", Map.of("path", "src"));
            assertThat(client.answer("x").path("result").asText()).isEqualTo("Deleted");
            assertThat(stack.workspace(session).resolve("src")).doesNotExist();

            client.command("esc", "read_file", Map.of("path", "../../etc/passwd"));
            assertThat(client.answer("esc").path("error").asText()).isEqualTo("forbidden");
        }
        assertThat(stack.gateway.log(session)).extracting(EventEnvelope::event)
                .filteredOn(ToolCallRequested.class::isInstance).map(ToolCallRequested.class::cast)
                .allSatisfy(c -> assertThat(c.byUser()).isTrue())
                .extracting(ToolCallRequested::name)
                .containsExactly("write", "upload", "ls", "download", "shell", "delete", "download");
    }

    /**
     * {@code vm_execute} and the terminal ({@code vm_execute_stream} with {@code interactive}, then {@code vm_input})
     * through the real worker and sandbox, where WebSocketApiIT has a fake worker: the command really runs, its
     * output and exit code come back, and the line typed into the terminal reaches the program reading it.
     */
    @Test
    void a_command_and_the_terminal_run_in_the_real_sandbox_and_their_output_comes_back() throws Exception {
        String session = stack.gateway.createSession("ws terminal");
        try (SocketClient client = open("session=" + session)) {
            client.command("e", "vm_execute", Map.of("command", "echo $((6 * 7)) | tee answer.txt; exit 3",
                    "timeout", 60));
            JsonNode whole = client.answer("e");
            assertThat(whole.path("exitCode").asInt()).as(whole.toString()).isEqualTo(3);
            assertThat(whole.path("result").asText()).startsWith("42\n").endsWith("exit code: 3");
            assertThat(Files.readString(stack.workspace(session).resolve("answer.txt"))).isEqualTo("42\n");

            client.command("i", "vm_execute_stream", Map.of("command",
                    "read -r name; echo \"hello $name\" > greeting.txt", "interactive", true));
            JsonNode started = client.answer("i");
            assertThat(started.path("result").asText()).as(started.toString()).isEqualTo("started");
            client.command("in", "vm_input", Map.of("data", "Ada\n"));
            JsonNode typed = client.answer("in");
            assertThat(typed.path("result").asText()).as(typed.toString()).isEqualTo("ok");

            Path greeting = stack.workspace(session).resolve("greeting.txt");
            Poll.until("the program in the terminal to read the typed line", Duration.ofMinutes(1),
                    () -> Files.isRegularFile(greeting) && read(greeting).equals("hello Ada\n"));
        }
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            return "";
        }
    }

    @Test
    void a_notification_reaches_every_connection_on_the_session_and_is_recorded() throws Exception {
        String session = stack.gateway.createSession("ws notify");
        try (SocketClient sender = open("session=" + session); SocketClient follower = open("session=" + session)) {
            sender.command("n", "send_notification", Map.of("message", "the report is ready"));
            assertThat(sender.answer("n").path("result").asText()).isEqualTo("ok");

            JsonNode seen = follower.until(m -> m.path("type").asText().equals("notification")).getLast();
            assertThat(seen.path("message").asText()).isEqualTo("the report is ready");
            assertThat(seen.path("sentBy").asText()).isEqualTo("local");
        }
        assertThat(stack.gateway.log(session)).extracting(EventEnvelope::event)
                .contains(new NotificationPosted("the report is ready", "local"));
    }

    @Test
    void memory_is_the_callers_own() throws Exception {
        try (SocketClient client = open(null)) {
            client.command("s", "set_memory", Map.of("memory", "prefers tabs"));
            assertThat(client.answer("s").path("result").asText()).isEqualTo("prefers tabs");
            client.command("g", "get_memory", Map.of());
            assertThat(client.answer("g").path("result").asText()).isEqualTo("prefers tabs");
            assertThat(stack.gateway.get("/api/v1/memory").json().path("content").asText())
                    .isEqualTo("prefers tabs");
            client.command("r", "reset_memory", Map.of());
            assertThat(client.answer("r").path("result").asText()).isEmpty();
        }
    }
}
