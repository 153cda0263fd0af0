package dev.agentbus.systemtests;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentbus.events.session.EventEnvelope;
import dev.agentbus.events.session.SessionEvent.ContextCompacted;
import dev.agentbus.events.session.SessionEvent.ContextCompactionRequested;
import dev.agentbus.events.session.SessionEvent.SystemPromptChanged;
import dev.agentbus.events.session.SessionEvent.TurnEnded;
import dev.agentbus.events.state.SessionFold;
import dev.agentbus.events.state.SessionState;
import dev.agentbus.testkit.Poll;
import dev.agentbus.testkit.model.ScriptedModelServer;
import dev.agentbus.testkit.model.ScriptedReply;
import dev.agentbus.testkit.model.ScriptedUsage;
import dev.agentbus.testkit.model.WindowStyle;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.http.HttpRequest;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static dev.agentbus.systemtests.EndToEndIT.events;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The context end to end on the standalone stack, with a scripted model server that tells a 1,000-token window the
 * way llama.cpp does: a long session is compacted before the model call that would overflow it, the next model
 * request carries the summary instead of the old turns, the gauge shows in the session's view, and folding the log
 * again (a replay) gives the same summary without a model call. Presets and a session's own system prompt reach the
 * model's requests.
 */
class ContextIT {
    static final Duration WAIT = Duration.ofSeconds(60);

    @TempDir
    static Path dataDir;
    static ScriptedModelServer model;
    static StandaloneStack stack;

    @BeforeAll
    static void startStack() {
        model = ScriptedModelServer.start().tellContextWindow(WindowStyle.LLAMA_CPP, 1000);
        stack = new StandaloneStack(dataDir, model, Map.of("agentbus.context.keep-recent-messages", "2"));
    }

    @AfterAll
    static void stopStack() {
        if (stack != null) {
            stack.close();
        }
        if (model != null) {
            model.close();
        }
    }

    @BeforeEach
    void freshScript() {
        model.reset();
    }

    private static List<EventEnvelope> turn(GatewayClient gw, String id, String text, int turnsBefore)
            throws InterruptedException {
        gw.postMessage(id, text);
        Poll.until("turn " + (turnsBefore + 1) + " to end", WAIT,
                () -> events(gw.log(id), TurnEnded.class).size() > turnsBefore);
        // The view answers the next message; wait until it has seen the end too.
        SteeringIT.awaitView(gw, id, "\"status\":\"IDLE\"");
        return gw.log(id);
    }

    @Test
    void a_long_session_is_compacted_and_the_next_request_carries_the_summary_instead_of_the_old_turns()
            throws Exception {
        model.reply(ScriptedReply.text("answer one").withUsage(ScriptedUsage.of(100, 10)))
                .reply(ScriptedReply.text("answer two").withUsage(ScriptedUsage.of(900, 10)))
                .replyText("SUMMARY: the person asked question two about the build")
                .replyText("answer three");
        GatewayClient gw = stack.gateway;
        String id = gw.createSession("long");

        turn(gw, id, "task one: fix the build", 0);
        turn(gw, id, "question two", 1);
        // 910 of 1,000 tokens used: the next prompt would pass 80 %, so the turn compacts before its model call.
        List<EventEnvelope> log = turn(gw, id, "question three", 2);

        assertThat(events(log, ContextCompactionRequested.class)).as(String.join("\n",
                log.stream().map(dev.agentbus.events.codec.EventCodec::eventToJson).toList())).hasSize(1);
        ContextCompactionRequested requested = events(log, ContextCompactionRequested.class).getFirst();
        assertThat(requested.requestedBy()).isNull();
        assertThat(requested.messagesCovered()).isEqualTo(3);
        ContextCompacted compacted = events(log, ContextCompacted.class).getFirst();
        assertThat(compacted.summary()).isEqualTo("SUMMARY: the person asked question two about the build");
        assertThat(events(log, TurnEnded.class).getLast().answer()).isEqualTo("answer three");

        List<JsonNode> requests = model.requests();
        assertThat(requests).hasSize(4);
        assertThat(requests.get(2).has("tools")).as("the summarising call offers no tools").isFalse();
        assertThat(requests.get(2).get("messages").toString()).contains("answer one").contains("question two")
                .doesNotContain("task one");
        String next = requests.get(3).get("messages").toString();
        assertThat(next).contains("SUMMARY: the person asked question two about the build")
                .contains("task one: fix the build").contains("answer two").contains("question three")
                .doesNotContain("answer one");

        JsonNode context = gw.get("/api/v1/sessions/" + id).json().get("context");
        assertThat(context.get("window").asLong()).isEqualTo(1000);
        assertThat(context.get("windowSource").asText()).isEqualTo("llama.cpp /props");
        assertThat(context.get("tokensUsed").asLong()).isPositive();
        assertThat(context.get("summary").get("text").asText()).startsWith("SUMMARY:");

        // A replay folds the log again: the same summary, and the model server is not asked anything.
        SessionState replayed = SessionFold.fold(id, gw.log(id));
        assertThat(replayed.context().summary().text()).isEqualTo(compacted.summary());
        assertThat(model.requestCount()).isEqualTo(4);
    }

    @Test
    void compaction_on_request_between_turns_and_409_during_one() throws Exception {
        model.replyText("one").replyText("two").replyText("a summary of one")
                .reply(ScriptedReply.text("slow").withDelay(Duration.ofSeconds(2)));
        GatewayClient gw = stack.gateway;
        String id = gw.createSession("manual");
        turn(gw, id, "first", 0);
        turn(gw, id, "second", 1);

        GatewayClient.Response r = gw.post("/api/v1/sessions/" + id + "/compact", "");
        assertThat(r.status()).isEqualTo(202);
        List<EventEnvelope> log = gw.awaitLog(id, e -> e.event() instanceof ContextCompacted, WAIT);
        assertThat(events(log, ContextCompactionRequested.class).getFirst().requestedBy()).isEqualTo("local");
        assertThat(events(log, ContextCompacted.class).getFirst().summary()).isEqualTo("a summary of one");

        gw.postMessage(id, "third");
        SteeringIT.awaitView(gw, id, "RUNNING");
        GatewayClient.Response busy = gw.post("/api/v1/sessions/" + id + "/compact", "");
        assertThat(busy.status()).isEqualTo(409);
        assertThat(busy.json().get("message").asText()).contains("is running");
    }

    @Test
    void a_preset_and_a_system_prompt_of_the_sessions_own_reach_the_model_and_a_bad_preset_is_400()
            throws Exception {
        model.replyText("ok").replyText("ok again");
        GatewayClient gw = stack.gateway;

        GatewayClient.Response bad = gw.post("/api/v1/sessions", "{\"title\":\"x\",\"preset\":\"poetry\"}");
        assertThat(bad.status()).isEqualTo(400);
        assertThat(bad.json().get("message").asText()).contains("unknown preset 'poetry'");

        GatewayClient.Response created = gw.post("/api/v1/sessions",
                "{\"title\":\"coding\",\"preset\":\"code\",\"systemPrompt\":\"You work for {user}.\"}");
        assertThat(created.status()).isEqualTo(201);
        String id = created.json().get("id").asText();
        turn(gw, id, "hello", 0);
        String system = model.requests().get(0).get("messages").get(0).get("content").asText();
        assertThat(system).startsWith("You work for local.").contains("Mode: coding agent");

        GatewayClient.Response put = gw.send(gw.request("/api/v1/sessions/" + id + "/system-prompt")
                .header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString("{\"preset\":\"research\"}")).build());
        assertThat(put.status()).isEqualTo(202);
        gw.awaitLog(id, e -> e.event() instanceof SystemPromptChanged s && "research".equals(s.preset()), WAIT);
        turn(gw, id, "again", 1);
        String second = model.requests().get(1).get("messages").get(0).get("content").asText();
        assertThat(second).contains("Mode: deep research").doesNotContain("You work for");

        JsonNode presets = gw.get("/api/v1/presets").json();
        assertThat(presets).extracting(p -> p.get("name").asText())
                .containsExactly("research", "code", "write", "analyze", "architect");
    }
}
