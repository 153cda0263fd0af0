package dev.agentbus.gateway.planning;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentbus.eventbus.KafkaSettings;
import dev.agentbus.events.Json;
import dev.agentbus.events.input.InputEnvelope;
import dev.agentbus.events.input.SessionInput;
import dev.agentbus.events.planning.TodoStatus;
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
 * The planning routes against a real broker and gateway (no orchestrator: what they write is read back from
 * {@code agentbus.session-inputs}): the session view and {@code /planning} show todos, plan and task state; a plan
 * decision is a 400 JSON error when malformed, a 409 when no plan waits, and otherwise the approval of the plan's
 * call; {@code planFirst} on creation reaches the orchestrator.
 */
class PlanningRoutesIT {
    static final Duration WAIT = Duration.ofSeconds(60);
    private static final String PLAN_ARGS = "{\"title\":\"fix\",\"steps\":[\"read\",\"edit\"]}";

    @TempDir
    static Path dir;
    static TestBroker broker;
    static TestGateway gateway;
    /** A plan-first session whose plan c1 waits for approval, with a todo and a checkpoint. */
    static String awaiting;
    /** A session without any plan. */
    static String plain;

    @BeforeAll
    static void start() throws Exception {
        broker = TestBroker.start(dir.resolve("kafka"));
        KafkaSettings kafka = broker.kafka();
        gateway = new TestGateway(broker.bootstrapServers(), dir.resolve("gw"), null);
        awaiting = UUID.randomUUID().toString();
        plain = UUID.randomUUID().toString();
        try (LogWriter log = new LogWriter(kafka)) {
            log.append(plain, "local", new SessionEvent.SessionCreated("plain", PermissionMode.AUTO));
            log.append(awaiting, "local", new SessionEvent.SessionCreated("t", PermissionMode.AUTO));
            log.append(awaiting, "local", new SessionEvent.PlanFirstChanged(true, "local"));
            log.append(awaiting, "local", new SessionEvent.UserMessagePosted("fix the bug"));
            log.append(awaiting, "local", new SessionEvent.ModelCallStarted("r1", 1));
            log.append(awaiting, "local", new SessionEvent.ModelCallCompleted("r1", "m", null, null,
                    List.of(new ToolCallSpec("t1", "todo_add", "{\"text\":\"find the bug\"}"),
                            new ToolCallSpec("t2", "task_state_update", "{\"task\":\"files\",\"done\":[\"a\"]}"),
                            new ToolCallSpec("c1", "plan_create", PLAN_ARGS)), TokenUsage.ZERO, "tool_calls"));
            log.append(awaiting, "local", new SessionEvent.TodoAdded(1, "find the bug"));
            log.append(awaiting, "local", new SessionEvent.TodoUpdated(1, TodoStatus.IN_PROGRESS, null, "looking"));
            log.append(awaiting, "local", new SessionEvent.ToolCallCompleted("t1", true, "ok", null, null, false, 0,
                    false));
            log.append(awaiting, "local", new SessionEvent.TaskStateUpdated("files", 3, List.of("a"), List.of(), null));
            log.append(awaiting, "local", new SessionEvent.ToolCallCompleted("t2", true, "ok", null, null, false, 0,
                    false));
            log.append(awaiting, "local", new SessionEvent.PlanCreated(1, "fix", List.of("read", "edit"), "c1", true));
            log.append(awaiting, "local", new SessionEvent.ApprovalRequested("c1", "plan_create", PLAN_ARGS, Risk.LOW,
                    "plan-first mode", Instant.now().plusSeconds(1800)));
        }
        Await.until("the plan awaiting approval in the view", WAIT,
                () -> gateway.get("/api/v1/sessions/" + awaiting).body().contains("AWAITING_APPROVAL"));
        Await.until("the plain session in the view", WAIT,
                () -> gateway.get("/api/v1/sessions/" + plain).statusCode() == 200);
    }

    @AfterAll
    static void stop() {
        if (gateway != null) {
            gateway.close();
        }
        broker.close();
    }

    @Test
    void the_session_view_shows_plan_first_the_todos_the_plan_and_the_task_state() throws Exception {
        JsonNode state = Json.mapper().readTree(gateway.get("/api/v1/sessions/" + awaiting).body());

        assertThat(state.get("status").asText()).isEqualTo("AWAITING_APPROVAL");
        assertThat(state.get("planFirst").asBoolean()).isTrue();
        assertThat(state.get("todos").get(0).toString())
                .isEqualTo("{\"id\":1,\"text\":\"find the bug\",\"status\":\"in_progress\",\"note\":\"looking\"}");
        JsonNode plan = state.get("plan");
        assertThat(plan.get("status").asText()).isEqualTo("proposed");
        assertThat(plan.get("callId").asText()).isEqualTo("c1");
        assertThat(plan.get("steps").get(1).toString()).isEqualTo("{\"text\":\"edit\",\"status\":\"pending\"}");
        assertThat(state.get("taskState").get("done").toString()).isEqualTo("[\"a\"]");
        assertThat(state.get("taskState").get("total").asInt()).isEqualTo(3);
        assertThat(state.get("pendingApprovals").get(0).get("tool").asText()).isEqualTo("plan_create");
    }

    @Test
    void the_planning_route_shows_the_same_and_a_session_without_plans_shows_empty_todos() throws Exception {
        JsonNode planning = Json.mapper().readTree(gateway.get("/api/v1/sessions/" + awaiting + "/planning").body());
        JsonNode none = Json.mapper().readTree(gateway.get("/api/v1/sessions/" + plain + "/planning").body());
        JsonNode view = Json.mapper().readTree(gateway.get("/api/v1/sessions/" + awaiting).body());

        assertThat(planning.get("plan")).isEqualTo(view.get("plan"));
        assertThat(planning.get("todos")).isEqualTo(view.get("todos"));
        assertThat(planning.get("taskState")).isEqualTo(view.get("taskState"));
        assertThat(none.toString()).isEqualTo("{\"planFirst\":false,\"todos\":[]}");
    }

    @Test
    void a_malformed_decision_is_a_400_json_error() throws Exception {
        for (String body : List.of("{\"decision\":\"maybe\"}", "{}", "{\"decision\":\"always\"}",
                "{\"decision\":\"deny\"}")) {
            HttpResponse<String> r = send("POST", "/api/v1/sessions/" + awaiting + "/plan/decision", body);
            assertThat(r.statusCode()).as(body).isEqualTo(400);
            assertThat(TestGateway.errorMessage(r)).contains("decision must be approve or reject");
        }
        HttpResponse<String> longNote = send("POST", "/api/v1/sessions/" + awaiting + "/plan/decision",
                "{\"decision\":\"reject\",\"note\":\"" + "x".repeat(4001) + "\"}");
        assertThat(longNote.statusCode()).isEqualTo(400);
        assertThat(TestGateway.errorMessage(longNote)).contains("note is longer than 4000 characters");
        HttpResponse<String> notJson = send("POST", "/api/v1/sessions/" + awaiting + "/plan/decision", "{decision");
        assertThat(notJson.statusCode()).isEqualTo(400);
        assertThat(Json.mapper().readTree(notJson.body()).has("message")).isTrue();
    }

    @Test
    void a_decision_without_a_plan_waiting_is_409_and_on_a_missing_session_404() throws Exception {
        HttpResponse<String> r = send("POST", "/api/v1/sessions/" + plain + "/plan/decision",
                "{\"decision\":\"approve\"}");

        assertThat(r.statusCode()).isEqualTo(409);
        assertThat(TestGateway.errorMessage(r)).contains("no plan waits for approval in session " + plain);
        String missing = "/api/v1/sessions/" + UUID.randomUUID();
        assertThat(send("POST", missing + "/plan/decision", "{\"decision\":\"approve\"}").statusCode()).isEqualTo(404);
        assertThat(gateway.get(missing + "/planning").statusCode()).isEqualTo(404);
    }

    @Test
    void a_decision_becomes_the_approval_of_the_plans_call_with_the_callers_id_and_note() throws Exception {
        HttpResponse<String> r = send("POST", "/api/v1/sessions/" + awaiting + "/plan/decision",
                "{\"decision\":\"Reject\",\"note\":\"add a test step\"}");

        assertThat(r.statusCode()).isEqualTo(202);
        String inputId = Json.mapper().readTree(r.body()).get("inputId").asText();
        List<InputEnvelope> inputs = SessionInputsReader.first(broker.bootstrapServers(), awaiting, 1, WAIT);
        assertThat(inputs).singleElement().satisfies(i -> {
            assertThat(i.input()).isEqualTo(new SessionInput.DecideApproval("c1", ApprovalDecision.DENIED,
                    "add a test step"));
            assertThat(i.id()).isEqualTo(inputId);
            assertThat(i.userId()).isEqualTo("local");
        });
    }

    @Test
    void a_session_created_plan_first_asks_for_it_and_one_created_without_does_not() throws Exception {
        String planFirst = Json.mapper().readTree(send("POST", "/api/v1/sessions",
                "{\"title\":\"careful\",\"planFirst\":true}").body()).get("id").asText();
        String without = Json.mapper().readTree(send("POST", "/api/v1/sessions",
                "{\"title\":\"quick\"}").body()).get("id").asText();

        assertThat(SessionInputsReader.first(broker.bootstrapServers(), planFirst, 1, WAIT))
                .extracting(InputEnvelope::input).containsExactly(new SessionInput.CreateSession("careful", null, true));
        assertThat(SessionInputsReader.first(broker.bootstrapServers(), without, 1, WAIT))
                .extracting(InputEnvelope::input).containsExactly(new SessionInput.CreateSession("quick", null, false));
        HttpResponse<String> bad = send("POST", "/api/v1/sessions", "{\"title\":\"x\",\"planFirst\":\"often\"}");
        assertThat(bad.statusCode()).isEqualTo(400);
    }

    private static HttpResponse<String> send(String method, String path, String body) throws Exception {
        return gateway.send(method, path, body);
    }
}
