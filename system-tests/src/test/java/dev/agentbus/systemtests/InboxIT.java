package dev.agentbus.systemtests;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentbus.events.Json;
import dev.agentbus.events.session.EventEnvelope;
import dev.agentbus.events.session.SessionEvent.ModelCallStarted;
import dev.agentbus.events.session.SessionEvent.SessionCreated;
import dev.agentbus.events.session.SessionEvent.TurnEnded;
import dev.agentbus.events.session.SessionEvent.UserMessagePosted;
import dev.agentbus.events.session.TurnOutcome;
import dev.agentbus.testkit.Poll;
import dev.agentbus.testkit.model.ScriptedModelServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import static dev.agentbus.systemtests.EndToEndIT.events;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The inbox end to end on the standalone stack with the scripted model server: a task queued for a time starts, at
 * that time and not before, a new session of its user that runs to the end, exactly once; and a task queued before a
 * restart of the whole stack starts once after it.
 */
class InboxIT {
    static final Duration WAIT = Duration.ofSeconds(90);

    @Test
    void a_task_for_a_time_starts_a_session_at_that_time_that_runs_to_the_end_once(@TempDir Path dir)
            throws Exception {
        try (ScriptedModelServer model = ScriptedModelServer.start();
             StandaloneStack stack = new StandaloneStack(dir, model, Map.of())) {
            model.replyText("The weekly report is done.");
            Instant at = Instant.now().plusSeconds(4);
            String id = submit(stack.gateway, "generate the weekly report", at);

            JsonNode queued = item(stack.gateway, id);
            assertThat(queued.get("status").asText()).isEqualTo("queued");
            assertThat(stack.gateway.get("/api/v1/sessions/" + id).status()).as("no session before its time")
                    .isEqualTo(404);

            List<EventEnvelope> log = stack.gateway.awaitLog(id, e -> e.event() instanceof TurnEnded, WAIT);

            assertThat(log.getFirst().time()).as("not before its time").isAfterOrEqualTo(at);
            assertThat(log.getFirst().userId()).isEqualTo("local");
            assertThat(events(log, SessionCreated.class)).singleElement()
                    .satisfies(c -> assertThat(c.title()).isEqualTo("Weekly report"));
            assertThat(events(log, UserMessagePosted.class)).singleElement()
                    .satisfies(m -> assertThat(m.text()).isEqualTo("generate the weekly report"));
            assertThat(events(log, TurnEnded.class)).singleElement().satisfies(t -> {
                assertThat(t.outcome()).isEqualTo(TurnOutcome.COMPLETED);
                assertThat(t.answer()).isEqualTo("The weekly report is done.");
            });
            assertThat(model.requestCount()).isEqualTo(1);
            awaitStarted(stack.gateway, id);
        }
    }

    @Test
    void a_task_queued_before_a_restart_of_every_service_starts_once_after_it(@TempDir Path dir) throws Exception {
        try (ScriptedModelServer model = ScriptedModelServer.start()) {
            model.replyText("Started after the restart.");
            String id;
            try (StandaloneStack first = new StandaloneStack(dir, model, Map.of())) {
                id = submit(first.gateway, "survive the restart", Instant.now().plusSeconds(3));
            }
            try (StandaloneStack second = new StandaloneStack(dir, model, Map.of())) {
                List<EventEnvelope> log = second.gateway.awaitLog(id, e -> e.event() instanceof TurnEnded, WAIT);
                awaitStarted(second.gateway, id);
                // Whatever was sent twice around the restart, one session, one message, one model call, one turn.
                log = second.gateway.log(id);
                assertThat(events(log, SessionCreated.class)).hasSize(1);
                assertThat(events(log, UserMessagePosted.class)).hasSize(1);
                assertThat(events(log, ModelCallStarted.class)).hasSize(1);
                assertThat(events(log, TurnEnded.class)).singleElement()
                        .satisfies(t -> assertThat(t.answer()).isEqualTo("Started after the restart."));
                assertThat(model.requestCount()).isEqualTo(1);
            }
        }
    }

    private static String submit(GatewayClient gw, String text, Instant at) throws Exception {
        GatewayClient.Response r = gw.post("/api/v1/inbox", Json.mapper().writeValueAsString(
                Map.of("text", text, "at", at.toString(), "title", "Weekly report")));
        assertThat(r.status()).as(r.body()).isEqualTo(201);
        return r.json().get("id").asText();
    }

    private static JsonNode item(GatewayClient gw, String id) {
        for (JsonNode n : gw.get("/api/v1/inbox").json()) {
            if (n.get("id").asText().equals(id)) {
                return n;
            }
        }
        throw new AssertionError("task " + id + " not in the inbox");
    }

    private static void awaitStarted(GatewayClient gw, String id) throws InterruptedException {
        Poll.until("task " + id + " to be listed as started", WAIT,
                () -> "started".equals(item(gw, id).get("status").asText()));
        assertThat(item(gw, id).get("sessionId").asText()).isEqualTo(id);
    }
}
