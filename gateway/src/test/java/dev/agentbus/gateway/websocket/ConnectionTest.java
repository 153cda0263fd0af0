package dev.agentbus.gateway.websocket;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static dev.agentbus.gateway.websocket.MessageAssembler.Kind.BINARY;
import static dev.agentbus.gateway.websocket.MessageAssembler.Kind.TEXT;
import static org.assertj.core.api.Assertions.assertThat;

/** A connection's rules, with handlers that stand in for the real commands: no socket, no Kafka. */
class ConnectionTest {
    private final RecordingOutbox outbox = new RecordingOutbox();
    private final CountDownLatch release = new CountDownLatch(1);
    private final CountDownLatch interrupted = new CountDownLatch(1);
    private final CountDownLatch hanging = new CountDownLatch(1);
    private final Connection connection = new Connection("ada", null, outbox, new MessageAssembler(64, 128),
            new CommandDispatcher(Map.of(
                    "whoami", call -> Reply.Result.of(call.id(), call.name(), call.userId() + "@" + call.sessionId()),
                    "chat", call -> Reply.Result.of(call.id(), call.name(), call.args().path("prompt").asText()),
                    "upload_document", call -> Reply.Result.of(call.id(), call.name(), call.frame().payload().length),
                    "hang", call -> {
                        hanging.countDown();
                        try {
                            release.await();
                        } catch (InterruptedException e) {
                            interrupted.countDown();
                            throw e;
                        }
                        return Reply.Result.of(call.id(), call.name(), "released");
                    })));

    private void text(String text) {
        connection.onFrame(TEXT, true, text.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void commands_wait_for_the_session_and_answer_with_their_id() throws Exception {
        text("{\"id\":\"1\",\"command\":\"whoami\"}");
        assertThat(outbox.sent.poll(100, TimeUnit.MILLISECONDS)).as("nothing before the session is ready").isNull();

        connection.ready("s-1");

        JsonNode reply = outbox.next();
        assertThat(reply.path("id").asText()).isEqualTo("1");
        assertThat(reply.path("result").asText()).isEqualTo("ada@s-1");
    }

    @Test
    void plain_text_is_a_chat_and_a_binary_message_an_upload() throws Exception {
        connection.ready("s-1");
        text("hello");
        assertThat(outbox.next().path("result").asText()).isEqualTo("hello");

        connection.onFrame(BINARY, true, BinaryUploads.message("{\"command\":\"upload_document\","
                + "\"file_name\":\"a\"}", new byte[3]));
        assertThat(outbox.next().path("result").asInt()).isEqualTo(3);
    }

    @Test
    void a_malformed_message_is_answered_and_the_connection_stays_open() throws Exception {
        connection.ready("s-1");
        text("{nope");

        JsonNode error = outbox.next();
        assertThat(error.path("type").asText()).isEqualTo("error");
        assertThat(error.path("error").asText()).isEqualTo("bad_request");
        assertThat(outbox.closeCodes).isEmpty();
        text("{\"id\":2,\"command\":\"whoami\"}");
        assertThat(outbox.next().path("id").asInt()).isEqualTo(2);
    }

    @Test
    void a_message_over_the_limit_is_answered_and_closed_with_1009_and_never_run() throws Exception {
        connection.ready("s-1");
        text("{\"id\":\"big\",\"command\":\"chat\",\"args\":{\"prompt\":\"" + "x".repeat(64) + "\"}}");

        JsonNode error = outbox.next();
        assertThat(error.path("error").asText()).isEqualTo("request_entity_too_large");
        assertThat(error.path("message").asText()).contains("text messages are at most 64 bytes");
        assertThat(outbox.closeCodes).containsExactly(1009);
        assertThat(outbox.sent.poll(200, TimeUnit.MILLISECONDS)).isNull();
    }

    @Test
    void a_fragmented_binary_message_over_its_limit_is_closed_with_1009() throws Exception {
        connection.ready("s-1");
        connection.onFrame(BINARY, false, new byte[100]);
        connection.onFrame(MessageAssembler.Kind.CONTINUATION, true, new byte[100]);

        assertThat(outbox.next().path("message").asText()).contains("binary messages");
        assertThat(outbox.closeCodes).containsExactly(1009);
    }

    @Test
    void no_more_than_the_limit_of_commands_run_at_once() throws Exception {
        connection.ready("s-1");
        for (int i = 0; i < Connection.MAX_IN_FLIGHT; i++) {
            text("{\"id\":" + i + ",\"command\":\"hang\"}");
        }
        text("{\"id\":\"one-more\",\"command\":\"hang\"}");

        JsonNode refused = outbox.next();
        assertThat(refused.path("id").asText()).isEqualTo("one-more");
        assertThat(refused.path("error").asText()).isEqualTo("too_many_requests");
        release.countDown();
        for (int i = 0; i < Connection.MAX_IN_FLIGHT; i++) {
            assertThat(outbox.next().path("result").asText()).isEqualTo("released");
        }
    }

    @Test
    void closing_stops_running_commands_and_runs_the_cleanups_once() throws Exception {
        connection.ready("s-1");
        int[] cleanups = {0};
        connection.onClose(() -> cleanups[0]++);
        text("{\"id\":\"h\",\"command\":\"hang\"}");
        assertThat(hanging.await(5, TimeUnit.SECONDS)).as("the command runs").isTrue();

        connection.close();
        connection.close();

        assertThat(interrupted.await(5, TimeUnit.SECONDS)).isTrue();
        assertThat(cleanups[0]).isEqualTo(1);
        connection.onClose(() -> cleanups[0]++);
        assertThat(cleanups[0]).as("a cleanup added after the close runs at once").isEqualTo(2);
        assertThat(outbox.sent.poll(200, TimeUnit.MILLISECONDS)).as("nothing is sent after the close").isNull();
    }

    @Test
    void a_command_after_the_credential_was_revoked_is_refused_and_the_connection_closed_4401() throws Exception {
        java.util.concurrent.atomic.AtomicBoolean live = new java.util.concurrent.atomic.AtomicBoolean(true);
        java.util.concurrent.atomic.AtomicInteger ran = new java.util.concurrent.atomic.AtomicInteger();
        Connection checked = new Connection("ada", null, outbox, new MessageAssembler(64, 128),
                new CommandDispatcher(Map.of("whoami", call -> {
                    ran.incrementAndGet();
                    return Reply.Result.of(call.id(), call.name(), call.userId());
                })), live::get);
        checked.ready("s-1");
        checked.onFrame(TEXT, true, "{\"id\":\"1\",\"command\":\"whoami\"}".getBytes(StandardCharsets.UTF_8));
        assertThat(outbox.next().path("result").asText()).isEqualTo("ada");

        live.set(false);
        checked.onFrame(TEXT, true, "{\"id\":\"2\",\"command\":\"whoami\"}".getBytes(StandardCharsets.UTF_8));

        JsonNode refused = outbox.next();
        assertThat(refused.path("error").asText()).isEqualTo("unauthorized");
        assertThat(ran.get()).as("the command never ran").isEqualTo(1);
        dev.agentbus.testkit.Poll.until("the close", java.time.Duration.ofSeconds(10),
                () -> outbox.closeCodes.contains(Connection.UNAUTHORIZED));
        assertThat(Connection.UNAUTHORIZED).isEqualTo(4401);
    }
}
