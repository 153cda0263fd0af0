package dev.agentbus.systemtests;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentbus.events.session.EventEnvelope;
import dev.agentbus.events.session.LoopGuard;
import dev.agentbus.events.session.SessionEvent.LoopWarned;
import dev.agentbus.events.session.SessionEvent.ModelCallStarted;
import dev.agentbus.events.session.SessionEvent.SessionRenamed;
import dev.agentbus.events.session.SessionEvent.ToolCallCompleted;
import dev.agentbus.events.session.SessionEvent.ToolCallRequested;
import dev.agentbus.events.session.SessionEvent.TurnEnded;
import dev.agentbus.events.session.SessionEvent.UserMessagePosted;
import dev.agentbus.events.session.SessionEvent.WaitEnded;
import dev.agentbus.events.session.SessionEvent.WaitScheduled;
import dev.agentbus.events.session.SessionEvent.WhisperDelivered;
import dev.agentbus.events.session.SessionEvent.WhisperQueued;
import dev.agentbus.events.session.TurnOutcome;
import dev.agentbus.testkit.Poll;
import dev.agentbus.testkit.model.ScriptedReply;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;

import static dev.agentbus.systemtests.EndToEndIT.events;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Steering a running agent end to end on the standalone stack with the scripted model server: a whisper reaches the
 * next model request without stopping the turn, a message wakes a waiting session, a rename reaches the lists, the
 * loop guard ends a turn whose model repeats the same call forever, and stop stops a slow model stream and a
 * {@code sleep 30} within seconds.
 */
class SteeringIT extends OnStandaloneStack {
    static final Duration WAIT = Duration.ofSeconds(60);

    @BeforeEach
    void freshScript() {
        model.reset();
    }

    @Test
    void a_whisper_during_a_slow_answer_reaches_the_next_model_request_and_the_turn_goes_on() throws Exception {
        model.reply(ScriptedReply.text("Done, I think.").withDelay(Duration.ofSeconds(3)))
                .replyText("Done, on the staging database.");
        GatewayClient gw = stack.gateway;
        String id = gw.createSession("whisper");
        gw.postMessage(id, "migrate the schema");
        awaitView(gw, id, "RUNNING");
        assertThat(model.awaitRequestCount(1, WAIT)).isTrue();

        GatewayClient.Response whispered = gw.post("/api/v1/sessions/" + id + "/whisper",
                "{\"text\":\"use the staging database\"}");
        assertThat(whispered.status()).isEqualTo(202);
        assertThat(whispered.json().get("inputId").asText()).isNotBlank();

        List<EventEnvelope> log = gw.awaitLog(id, e -> e.event() instanceof TurnEnded, WAIT);
        TurnEnded end = events(log, TurnEnded.class).getLast();
        assertThat(end.outcome()).isEqualTo(TurnOutcome.COMPLETED);
        assertThat(end.answer()).isEqualTo("Done, on the staging database.");
        assertThat(events(log, WhisperQueued.class)).singleElement()
                .satisfies(w -> assertThat(w.sentBy()).isEqualTo("local"));
        assertThat(events(log, WhisperDelivered.class)).hasSize(1);
        List<JsonNode> requests = model.requests();
        assertThat(requests).hasSize(2);
        assertThat(requests.get(0).toString()).doesNotContain("use the staging database");
        assertThat(requests.get(1).get("messages").toString())
                .contains("The user sent this note while you were working: use the staging database");
    }

    @Test
    void a_whisper_to_an_idle_session_is_409() throws Exception {
        GatewayClient gw = stack.gateway;
        String id = gw.createSession("idle whisper");

        GatewayClient.Response r = gw.post("/api/v1/sessions/" + id + "/whisper", "{\"text\":\"psst\"}");

        assertThat(r.status()).isEqualTo(409);
        assertThat(r.json().get("message").asText()).contains("send a message instead");
    }

    @Test
    void a_message_wakes_a_waiting_session_ends_its_wait_early_and_the_model_is_called() throws Exception {
        Instant later = Instant.now().plus(2, ChronoUnit.HOURS).truncatedTo(ChronoUnit.SECONDS);
        model.replyText("I'll check again later.\nWAIT: " + later + ": the build runs")
                .replyText("Great, the build is green.");
        GatewayClient gw = stack.gateway;
        String id = gw.createSession("wake");
        gw.postMessage(id, "watch the build");
        gw.awaitLog(id, e -> e.event() instanceof WaitScheduled, WAIT);
        awaitView(gw, id, "WAITING");

        GatewayClient.Response r = gw.post("/api/v1/sessions/" + id + "/messages",
                "{\"text\":\"it finished already, it's green\"}");
        assertThat(r.status()).isEqualTo(202);

        List<EventEnvelope> log = gw.awaitLog(id, e -> e.event() instanceof TurnEnded, WAIT);
        assertThat(events(log, WaitEnded.class)).singleElement().satisfies(w -> assertThat(w.interrupted()).isTrue());
        assertThat(events(log, UserMessagePosted.class)).hasSize(2);
        assertThat(events(log, TurnEnded.class)).singleElement().satisfies(t -> {
            assertThat(t.outcome()).isEqualTo(TurnOutcome.COMPLETED);
            assertThat(t.answer()).isEqualTo("Great, the build is green.");
        });
        assertThat(model.requests()).hasSize(2);
        assertThat(model.requests().get(1).get("messages").toString()).contains("it finished already, it's green");
        JsonNode state = gw.get("/api/v1/sessions/" + id).json();
        assertThat(state.get("turns").asInt()).as("the message joined the turn it woke").isEqualTo(1);
    }

    @Test
    void a_rename_reaches_the_session_and_the_list() throws Exception {
        GatewayClient gw = stack.gateway;
        String id = gw.createSession("before");

        GatewayClient.Response r = gw.send(gw.request("/api/v1/sessions/" + id + "/title")
                .header("Content-Type", "application/json")
                .PUT(java.net.http.HttpRequest.BodyPublishers.ofString("{\"title\":\"After the rename\"}")).build());
        assertThat(r.status()).isEqualTo(202);

        gw.awaitLog(id, e -> e.event() instanceof SessionRenamed, WAIT);
        awaitView(gw, id, "After the rename");
        assertThat(gw.get("/api/v1/sessions").body()).contains("After the rename").doesNotContain("\"before\"");
    }

    @Test
    void a_model_that_repeats_the_same_call_forever_is_warned_once_then_the_turn_ends_loop_detected()
            throws Exception {
        for (int i = 0; i < 10; i++) {
            model.replyToolCall("ls", "{\"path\":\".\"}");
        }
        GatewayClient gw = stack.gateway;
        String id = gw.createSession("loop");
        gw.postMessage(id, "look around");

        List<EventEnvelope> log = gw.awaitLog(id, e -> e.event() instanceof TurnEnded, WAIT);

        TurnEnded end = events(log, TurnEnded.class).getLast();
        assertThat(end.outcome()).isEqualTo(TurnOutcome.LOOP_DETECTED);
        assertThat(end.message()).contains("4 times in a row");
        assertThat(events(log, LoopWarned.class)).singleElement()
                .satisfies(w -> assertThat(w.guard()).isEqualTo(LoopGuard.REPEATED_CALL));
        assertThat(events(log, ModelCallStarted.class)).hasSize(4);
        assertThat(events(log, ToolCallRequested.class)).as("the fourth call did not run").hasSize(3);
        assertThat(events(log, ToolCallCompleted.class)).hasSize(4);
        assertThat(model.requests().get(3).get("messages").toString()).contains("Loop guard: you called ls");
        JsonNode state = gw.get("/api/v1/sessions/" + id).json();
        assertThat(state.get("lastOutcome").asText()).isEqualTo("LOOP_DETECTED");
    }

    @Test
    void stop_during_a_slow_model_stream_ends_the_turn_and_hangs_up_on_the_model_server() throws Exception {
        // 200 one-character pieces a tenth of a second apart: twenty seconds if read to the end.
        model.streamChunkSize(1).reply(ScriptedReply.text("y".repeat(200)).withChunkDelay(Duration.ofMillis(100)));
        try {
            GatewayClient gw = stack.gateway;
            String id = gw.createSession("slow stream");
            gw.postMessage(id, "write a long story");
            assertThat(model.awaitRequestCount(1, WAIT)).isTrue();
            awaitView(gw, id, "RUNNING");
            gw.sse(id, null, e -> "delta".equals(e.event()), WAIT); // the answer is streaming

            long stoppedAt = System.nanoTime();
            assertThat(gw.post("/api/v1/sessions/" + id + "/cancel", "").status()).isEqualTo(202);

            List<EventEnvelope> log = gw.awaitLog(id, e -> e.event() instanceof TurnEnded, WAIT);
            assertThat(events(log, TurnEnded.class).getLast().outcome()).isEqualTo(TurnOutcome.CANCELLED);
            assertThat(model.awaitHangUps(1, Duration.ofSeconds(10)))
                    .as("the orchestrator dropped the stream instead of reading it to its end").isTrue();
            assertThat(Duration.ofNanos(System.nanoTime() - stoppedAt)).isLessThan(Duration.ofSeconds(12));
            assertThat(events(log, dev.agentbus.events.session.SessionEvent.ModelCallCompleted.class)).isEmpty();
        } finally {
            model.streamChunkSize(4);
        }
    }

    @Test
    void stop_during_sleep_30_kills_the_command_and_records_its_result_once_as_cancelled() throws Exception {
        model.replyToolCall("shell", "{\"command\":\"echo begun > begun.txt; sleep 30; echo never\"}")
                .replyText("Awake again.");
        GatewayClient gw = stack.gateway;
        String id = gw.createSession("sleepy");
        gw.postMessage(id, "take a nap");
        Path begun = stack.workspace(id).resolve("begun.txt");
        Poll.until("the command is under way", WAIT, () -> Files.exists(begun));

        long stoppedAt = System.nanoTime();
        assertThat(gw.post("/api/v1/sessions/" + id + "/cancel", "").status()).isEqualTo(202);

        List<EventEnvelope> log = gw.awaitLog(id, e -> e.event() instanceof ToolCallCompleted, Duration.ofSeconds(20));
        assertThat(Duration.ofNanos(System.nanoTime() - stoppedAt)).as("killed, not waited for")
                .isLessThan(Duration.ofSeconds(15));
        assertThat(events(log, TurnEnded.class)).singleElement()
                .satisfies(t -> assertThat(t.outcome()).isEqualTo(TurnOutcome.CANCELLED));
        assertThat(events(log, ToolCallCompleted.class)).singleElement().satisfies(c -> {
            assertThat(c.ok()).isFalse();
            assertThat(c.error()).startsWith("cancelled: the turn was cancelled while this call ran");
            assertThat(c.output() == null ? "" : c.output()).doesNotContain("never");
        });
        // Nothing reports it again: after a whole next turn, which comes after anything the worker sent about the
        // call, the log still has exactly one result.
        gw.postMessage(id, "wake up");
        List<EventEnvelope> later = gw.awaitLog(id, e -> e.event() instanceof TurnEnded t
                && t.outcome() == TurnOutcome.COMPLETED, WAIT);
        assertThat(events(later, ToolCallCompleted.class)).hasSize(1);
    }

        /** Until the gateway's view of the session contains the text (a status, a title). */
    static void awaitView(GatewayClient gw, String id, String text) throws InterruptedException {
        Poll.until("the view shows " + text, WAIT, () -> gw.get("/api/v1/sessions/" + id).body().contains(text));
    }
}
