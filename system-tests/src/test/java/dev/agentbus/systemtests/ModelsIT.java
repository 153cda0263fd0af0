package dev.agentbus.systemtests;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentbus.events.models.ModelChoice;
import dev.agentbus.events.models.Sampling;
import dev.agentbus.events.session.EventEnvelope;
import dev.agentbus.events.session.SessionEvent.ApprovalRequested;
import dev.agentbus.events.session.SessionEvent.ModelCallStarted;
import dev.agentbus.events.session.SessionEvent.ModelSettingsChanged;
import dev.agentbus.events.session.SessionEvent.TurnEnded;
import org.junit.jupiter.api.Test;

import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.List;

import static dev.agentbus.systemtests.EndToEndIT.events;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Models and sampling per session end to end, through the broker, with the scripted model server checking what each
 * call sent: a session created with a model and sampling sends them; a change while a turn runs (held on an approval)
 * applies from its next model call; without a choice of the session, the user's own sampling applies.
 */
class ModelsIT extends OnStandaloneStack {
    static final Duration WAIT = Duration.ofSeconds(60);

    @Test
    void a_session_created_with_a_model_and_sampling_sends_them_and_shows_them() throws Exception {
        model.replyText("hot answer");
        GatewayClient gw = stack.gateway;
        int before = model.requestCount();
        GatewayClient.Response created = gw.post("/api/v1/sessions", """
                {"title":"own model","model":"session-model",
                 "sampling":{"temperature":1.3,"topP":0.9,"maxTokens":777}}""");
        assertThat(created.status()).as(created.body()).isEqualTo(201);
        String id = created.json().get("id").asText();

        gw.postMessage(id, "hello");
        List<EventEnvelope> log = gw.awaitLog(id, e -> e.event() instanceof TurnEnded, WAIT);

        JsonNode sent = model.requests().get(before);
        assertThat(sent.get("model").asText()).isEqualTo("session-model");
        assertThat(sent.get("temperature").asDouble()).isEqualTo(1.3);
        assertThat(sent.get("top_p").asDouble()).isEqualTo(0.9);
        assertThat(sent.get("max_tokens").asInt()).isEqualTo(777);
        ModelChoice asked = events(log, ModelCallStarted.class).getFirst().asked();
        assertThat(asked).as("the log records what was asked")
                .isEqualTo(new ModelChoice("session-model", new Sampling(1.3, 0.9, 777)));

        JsonNode view = awaitView(gw, id, v -> v.path("model").has("lastCall"));
        assertThat(view.get("model").get("chosen").get("model").asText()).isEqualTo("session-model");
        assertThat(view.get("model").get("lastCall").get("temperature").asDouble()).isEqualTo(1.3);
    }

    @Test
    void a_change_while_a_turn_runs_applies_from_its_next_model_call() throws Exception {
        model.replyToolCall("shell", "{\"command\":\"echo hi\"}").replyText("done");
        GatewayClient gw = stack.gateway;
        int before = model.requestCount();
        GatewayClient.Response created = gw.post("/api/v1/sessions",
                "{\"title\":\"switch\",\"mode\":\"normal\",\"model\":\"first-model\"}");
        assertThat(created.status()).as(created.body()).isEqualTo(201);
        String id = created.json().get("id").asText();
        gw.postMessage(id, "run it");

        // The turn holds on the approval of the shell call: it is under way, between two model calls.
        List<EventEnvelope> log = gw.awaitLog(id, e -> e.event() instanceof ApprovalRequested, WAIT);
        String callId = events(log, ApprovalRequested.class).getFirst().callId();
        GatewayClient.Response changed = gw.send(gw.request("/api/v1/sessions/" + id + "/model")
                .header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString(
                        "{\"model\":\"second-model\",\"sampling\":{\"temperature\":0.05}}")).build());
        assertThat(changed.status()).as(changed.body()).isEqualTo(202);
        gw.awaitLog(id, e -> e.event() instanceof ModelSettingsChanged m && "second-model".equals(m.model()), WAIT);
        awaitView(gw, id, v -> v.get("status").asText().equals("AWAITING_APPROVAL"));
        assertThat(gw.post("/api/v1/sessions/" + id + "/approvals/" + callId, "{\"decision\":\"approve\"}")
                .status()).isEqualTo(202);
        log = gw.awaitLog(id, e -> e.event() instanceof TurnEnded, WAIT);

        List<JsonNode> sent = model.requests().subList(before, before + 2);
        assertThat(sent.get(0).get("model").asText()).isEqualTo("first-model");
        assertThat(sent.get(0).get("temperature").asDouble()).as("the installation's").isEqualTo(0.2);
        assertThat(sent.get(1).get("model").asText()).isEqualTo("second-model");
        assertThat(sent.get(1).get("temperature").asDouble()).isEqualTo(0.05);
        assertThat(events(log, ModelSettingsChanged.class).getLast().changedBy()).isEqualTo("local");
    }

    @Test
    void without_a_choice_of_the_session_the_users_own_sampling_applies_to_a_new_session() throws Exception {
        GatewayClient gw = stack.gateway;
        GatewayClient.Response set = gw.send(gw.request("/api/v1/me/model")
                .header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString("{\"baseUrl\":\"" + model.baseUrl()
                        + "\",\"model\":\"users-model\",\"temperature\":0.55,\"maxTokens\":1234}")).build());
        assertThat(set.status()).as(set.body()).isEqualTo(200);
        try {
            model.replyText("as you like it");
            int before = model.requestCount();
            String id = gw.createSession("user's defaults");
            gw.postMessage(id, "hello");
            gw.awaitLog(id, e -> e.event() instanceof TurnEnded, WAIT);

            JsonNode sent = model.requests().get(before);
            assertThat(sent.get("model").asText()).isEqualTo("users-model");
            assertThat(sent.get("temperature").asDouble()).isEqualTo(0.55);
            assertThat(sent.get("max_tokens").asInt()).isEqualTo(1234);
            assertThat(sent.has("top_p")).as("nobody chose one").isFalse();

            JsonNode listed = gw.get("/api/v1/models").json();
            assertThat(listed.get("server").asText()).isEqualTo("own");
            assertThat(listed.get("models").get(0).get("id").asText()).isEqualTo(model.modelName());
        } finally {
            assertThat(gw.send(gw.request("/api/v1/me/model").DELETE().build()).status()).isEqualTo(200);
        }
    }

    /** The session's view once it satisfies the condition: the gateway's view may trail the log a little. */
    private static JsonNode awaitView(GatewayClient gw, String id, java.util.function.Predicate<JsonNode> ok)
            throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        JsonNode view = gw.get("/api/v1/sessions/" + id).json();
        while (!ok.test(view)) {
            assertThat(System.nanoTime()).as("the view: %s", view).isLessThan(deadline);
            Thread.sleep(50);
            view = gw.get("/api/v1/sessions/" + id).json();
        }
        return view;
    }
}
