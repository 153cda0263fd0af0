package dev.agentbus.gateway.approvals;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentbus.eventbus.KafkaSettings;
import dev.agentbus.events.Json;
import dev.agentbus.events.input.InputEnvelope;
import dev.agentbus.events.input.SessionInput;
import dev.agentbus.events.session.ApprovalDecision;
import dev.agentbus.events.session.PermissionMode;
import dev.agentbus.events.session.SessionEvent;
import dev.agentbus.events.session.TokenUsage;
import dev.agentbus.events.session.ToolCallSpec;
import dev.agentbus.events.tools.Risk;
import dev.agentbus.gateway.readmodels.Await;
import dev.agentbus.gateway.readmodels.LogWriter;
import dev.agentbus.gateway.readmodels.SessionInputsReader;
import dev.agentbus.gateway.readmodels.TestBroker;
import dev.agentbus.gateway.readmodels.TestGateway;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The two approval routes against a real broker and gateway (no orchestrator: what they write is read back from
 * {@code agentbus.session-inputs}). Bad input is a 400 JSON error, a call that is not pending a 409, and a good
 * request becomes exactly the input the decider reads.
 */
class ApprovalRoutesIT {
    static final Duration WAIT = Duration.ofSeconds(60);

    @TempDir
    static Path dir;
    static TestBroker broker;
    static KafkaSettings kafka;
    static TestGateway gateway;
    static String session;

    @BeforeAll
    static void start() throws Exception {
        broker = TestBroker.start(dir.resolve("kafka"));
        kafka = broker.kafka();
        gateway = new TestGateway(broker.bootstrapServers(), dir.resolve("gw"), null);
        session = UUID.randomUUID().toString();
        try (LogWriter log = new LogWriter(kafka)) {
            log.append(session, "local", new SessionEvent.SessionCreated("t", PermissionMode.NORMAL));
            log.append(session, "local", new SessionEvent.UserMessagePosted("list the files"));
            log.append(session, "local", new SessionEvent.ModelCallStarted("r1", 1));
            log.append(session, "local", new SessionEvent.ModelCallCompleted("r1", "m", null, null,
                    List.of(new ToolCallSpec("c1", "shell", "{\"command\":\"ls\"}")), TokenUsage.ZERO,
                    "tool_calls"));
            log.append(session, "local", new SessionEvent.ApprovalRequested("c1", "shell", "{\"command\":\"ls\"}",
                    Risk.HIGH, "normal mode", Instant.now().plusSeconds(1800)));
        }
        Await.until("the session awaiting approval in the view", WAIT,
                () -> gateway.get("/api/v1/sessions/" + session).body().contains("AWAITING_APPROVAL"));
    }

    @AfterAll
    static void stop() {
        if (gateway != null) {
            gateway.close();
        }
        broker.close();
    }

    @Test
    void the_session_shows_its_mode_and_the_pending_approval() throws Exception {
        JsonNode state = Json.mapper().readTree(gateway.get("/api/v1/sessions/" + session).body());

        assertThat(state.get("status").asText()).isEqualTo("AWAITING_APPROVAL");
        assertThat(state.get("permissionMode").asText()).isEqualTo("normal");
        JsonNode pending = state.get("pendingApprovals").get(0);
        assertThat(pending.get("callId").asText()).isEqualTo("c1");
        assertThat(pending.get("tool").asText()).isEqualTo("shell");
        assertThat(pending.get("risk").asText()).isEqualTo("high");
        assertThat(pending.has("expiresAt")).isTrue();
    }

    @Test
    void an_unknown_decision_is_a_400_json_error() throws Exception {
        for (String body : List.of("{\"decision\":\"maybe\"}", "{}", "{\"decision\":\"expired\"}")) {
            HttpResponse<String> r = send("POST", "/api/v1/sessions/" + session + "/approvals/c1", body);
            assertThat(r.statusCode()).as(body).isEqualTo(400);
            assertThat(error(r)).contains("decision must be approve, deny or always");
        }
    }

    @Test
    void a_mode_that_is_not_one_of_the_three_is_a_400_json_error_on_the_session_and_on_create() throws Exception {
        HttpResponse<String> set = send("PUT", "/api/v1/sessions/" + session + "/mode", "{\"mode\":\"yolo\"}");
        assertThat(set.statusCode()).isEqualTo(400);
        assertThat(error(set)).contains("mode must be auto, normal or manual");
        assertThat(send("PUT", "/api/v1/sessions/" + session + "/mode", "{}").statusCode()).isEqualTo(400);

        HttpResponse<String> create = send("POST", "/api/v1/sessions", "{\"title\":\"x\",\"mode\":\"sometimes\"}");
        assertThat(create.statusCode()).isEqualTo(400);
        assertThat(error(create)).contains("mode must be auto, normal or manual");
    }

    @Test
    void a_decision_for_a_call_that_is_not_pending_is_409() throws Exception {
        HttpResponse<String> r = send("POST", "/api/v1/sessions/" + session + "/approvals/c-none",
                "{\"decision\":\"approve\"}");

        assertThat(r.statusCode()).isEqualTo(409);
        assertThat(error(r)).contains("no approval is pending for call c-none");
    }

    @Test
    void a_missing_session_is_404_for_both_routes() throws Exception {
        String missing = "/api/v1/sessions/" + UUID.randomUUID();
        assertThat(send("PUT", missing + "/mode", "{\"mode\":\"auto\"}").statusCode()).isEqualTo(404);
        assertThat(send("POST", missing + "/approvals/c1", "{\"decision\":\"approve\"}").statusCode()).isEqualTo(404);
    }

    @Test
    void good_requests_become_the_inputs_the_decider_reads_with_the_callers_id() throws Exception {
        HttpResponse<String> decided = send("POST", "/api/v1/sessions/" + session + "/approvals/c1",
                "{\"decision\":\"Deny\",\"note\":\"use ls -la\"}");
        HttpResponse<String> mode = send("PUT", "/api/v1/sessions/" + session + "/mode", "{\"mode\":\"MANUAL\"}");

        assertThat(decided.statusCode()).isEqualTo(202);
        assertThat(mode.statusCode()).isEqualTo(202);
        String decideId = Json.mapper().readTree(decided.body()).get("inputId").asText();
        List<InputEnvelope> inputs = inputsOf(session, 2);
        assertThat(inputs).extracting(InputEnvelope::input).contains(
                new SessionInput.DecideApproval("c1", ApprovalDecision.DENIED, "use ls -la"),
                new SessionInput.SetPermissionMode(PermissionMode.MANUAL));
        assertThat(inputs).filteredOn(i -> i.id().equals(decideId)).singleElement()
                .extracting(InputEnvelope::userId).isEqualTo("local");
    }

    @Test
    void a_session_created_with_a_mode_asks_for_it() throws Exception {
        HttpResponse<String> r = send("POST", "/api/v1/sessions", "{\"title\":\"careful\",\"mode\":\"manual\"}");

        String id = Json.mapper().readTree(r.body()).get("id").asText();
        assertThat(inputsOf(id, 1)).extracting(InputEnvelope::input)
                .containsExactly(new SessionInput.CreateSession("careful", PermissionMode.MANUAL));
    }

    private static String error(HttpResponse<String> r) throws Exception {
        return TestGateway.errorMessage(r);
    }

    private static HttpResponse<String> send(String method, String path, String body) throws Exception {
        return gateway.send(method, path, body);
    }

    private static List<InputEnvelope> inputsOf(String sessionId, int count) {
        return SessionInputsReader.first(broker.bootstrapServers(), sessionId, count, WAIT);
    }
}
