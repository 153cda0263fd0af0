package dev.agentbus.systemtests;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentbus.broker.EmbeddedKafkaBroker;
import dev.agentbus.events.session.ApprovalDecision;
import dev.agentbus.events.session.EventEnvelope;
import dev.agentbus.events.session.SessionEvent.ApprovalDecided;
import dev.agentbus.events.session.SessionEvent.ApprovalRequested;
import dev.agentbus.events.session.SessionEvent.ToolCallCompleted;
import dev.agentbus.events.session.SessionEvent.ToolCallRequested;
import dev.agentbus.events.session.SessionEvent.ToolCallStarted;
import dev.agentbus.events.session.SessionEvent.TurnEnded;
import dev.agentbus.events.session.TurnOutcome;
import dev.agentbus.gateway.GatewayApplication;
import dev.agentbus.orchestrator.OrchestratorApplication;
import dev.agentbus.sandbox.SandboxWorkerApplication;
import dev.agentbus.scheduler.SchedulerApplication;
import dev.agentbus.testkit.model.ScriptedModelServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.LongStream;

import static dev.agentbus.systemtests.EndToEndIT.events;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Approvals end to end on the standalone stack with the scripted model server: a session in normal mode whose model
 * asks for {@code shell} waits for a person; approved, the command runs once and the turn completes; denied, the
 * model reads the person's note; left alone, the approval expires (a short time-out here) and counts as denied; a
 * pending approval survives a restart of the whole stack; and one decided while the orchestrator is dead (SIGKILL,
 * the services as OS processes) runs exactly once after its restart.
 */
class ApprovalsIT {
    /** Short, so the expiry test is quick; long enough for the other tests to decide well before it. */
    static final String APPROVAL_TIMEOUT = "8s";
    static final Duration WAIT = Duration.ofSeconds(60);

    @TempDir
    static Path dataDir;
    static ScriptedModelServer model;
    static StandaloneStack stack;

    @BeforeAll
    static void startStack() {
        model = ScriptedModelServer.start();
        stack = new StandaloneStack(dataDir, model, Map.of("agentbus.permissions.approval-timeout", APPROVAL_TIMEOUT));
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

    @Test
    void an_approved_command_runs_once_and_the_turn_completes() throws Exception {
        model.replyToolCall("shell", "{\"command\":\"echo ran >> ran.txt; cat ran.txt\"}").replyText("It ran.");
        GatewayClient gw = stack.gateway;
        int requestsBefore = model.requestCount();
        String id = createInNormalMode(gw, "approve");
        gw.postMessage(id, "run it");

        String callId = awaitApproval(gw, id);
        JsonNode state = gw.get("/api/v1/sessions/" + id).json();
        assertThat(state.get("status").asText()).isEqualTo("AWAITING_APPROVAL");
        assertThat(state.get("permissionMode").asText()).isEqualTo("normal");
        JsonNode pending = state.get("pendingApprovals").get(0);
        assertThat(pending.get("callId").asText()).isEqualTo(callId);
        assertThat(pending.get("tool").asText()).isEqualTo("shell");
        assertThat(pending.get("risk").asText()).isEqualTo("high");
        assertThat(pending.get("arguments").asText()).contains("ran.txt");
        assertThat(pending.has("expiresAt")).isTrue();
        // (A message now would wake the turn, denying the call: SteeringIT shows that.)
        assertThat(model.requestCount() - requestsBefore).as("the model waits for the decision").isEqualTo(1);
        assertThat(stack.workspace(id).resolve("ran.txt")).doesNotExist();

        assertThat(decide(gw, id, callId, "{\"decision\":\"approve\"}").status()).isEqualTo(202);
        List<EventEnvelope> log = gw.awaitLog(id, e -> e.event() instanceof TurnEnded, WAIT);

        assertThat(events(log, ApprovalDecided.class)).singleElement().satisfies(d -> {
            assertThat(d.decision()).isEqualTo(ApprovalDecision.APPROVED);
            assertThat(d.decidedBy()).isEqualTo("local");
        });
        assertRanOnce(log, callId);
        assertThat(events(log, TurnEnded.class).getLast().outcome()).isEqualTo(TurnOutcome.COMPLETED);
        assertThat(stack.workspace(id).resolve("ran.txt")).hasContent("ran");
        assertThat(decide(gw, id, callId, "{\"decision\":\"deny\"}").status())
                .as("a second decision: the call is no longer pending").isEqualTo(409);
        assertThat(gw.get("/api/v1/sessions/" + id).json().get("pendingApprovals")).isEmpty();
    }

    @Test
    void a_denied_command_does_not_run_and_the_model_reads_the_persons_note() throws Exception {
        model.replyToolCall("shell", "{\"command\":\"echo denied > denied.txt\"}").replyText("Understood.");
        GatewayClient gw = stack.gateway;
        String id = createInNormalMode(gw, "deny");
        gw.postMessage(id, "write it with the shell");
        String callId = awaitApproval(gw, id);

        assertThat(decide(gw, id, callId, "{\"decision\":\"deny\",\"note\":\"use the write tool instead\"}").status())
                .isEqualTo(202);
        List<EventEnvelope> log = gw.awaitLog(id, e -> e.event() instanceof TurnEnded, WAIT);

        assertThat(events(log, ToolCallRequested.class)).as("never sent to the worker").isEmpty();
        assertThat(events(log, ToolCallCompleted.class)).singleElement().satisfies(c -> {
            assertThat(c.ok()).isFalse();
            assertThat(c.error()).contains("denied").contains("use the write tool instead");
        });
        assertThat(model.lastRequest().get("messages").toString()).contains("use the write tool instead");
        assertThat(events(log, TurnEnded.class).getLast().answer()).isEqualTo("Understood.");
        assertThat(stack.workspace(id).resolve("denied.txt")).doesNotExist();
    }

    @Test
    void an_approval_nobody_decides_expires_after_the_time_out_and_counts_as_denied() throws Exception {
        model.replyToolCall("shell", "{\"command\":\"echo late > late.txt\"}").replyText("Nobody answered.");
        GatewayClient gw = stack.gateway;
        String id = createInNormalMode(gw, "expire");
        gw.postMessage(id, "run it");
        awaitApproval(gw, id);

        List<EventEnvelope> log = gw.awaitLog(id, e -> e.event() instanceof TurnEnded, WAIT);

        ApprovalRequested requested = events(log, ApprovalRequested.class).getFirst();
        EventEnvelope decided = log.stream().filter(e -> e.event() instanceof ApprovalDecided).findFirst()
                .orElseThrow();
        assertThat(((ApprovalDecided) decided.event()).decision()).isEqualTo(ApprovalDecision.EXPIRED);
        assertThat(decided.time()).as("fired at the expiry").isAfterOrEqualTo(requested.expiresAt());
        assertThat(events(log, ToolCallRequested.class)).isEmpty();
        assertThat(events(log, ToolCallCompleted.class).getFirst().error()).contains("expired");
        assertThat(model.lastRequest().get("messages").toString()).contains("expired");
        assertThat(events(log, TurnEnded.class).getLast().outcome()).isEqualTo(TurnOutcome.COMPLETED);
        assertThat(stack.workspace(id).resolve("late.txt")).doesNotExist();
    }

    @Test
    void a_pending_approval_survives_a_restart_and_the_approved_command_runs_exactly_once(@TempDir Path otherDir)
            throws Exception {
        try (ScriptedModelServer own = ScriptedModelServer.start()) {
            own.replyToolCall("shell", "{\"command\":\"echo once >> once.txt\"}").replyText("Done once.");
            String id;
            String callId;
            JsonNode before;
            try (StandaloneStack first = new StandaloneStack(otherDir, own, Map.of())) {
                id = createInNormalMode(first.gateway, "restart");
                first.gateway.postMessage(id, "run it once");
                callId = awaitApproval(first.gateway, id);
                before = first.gateway.get("/api/v1/sessions/" + id).json();
            }

            try (StandaloneStack second = new StandaloneStack(otherDir, own, Map.of())) {
                JsonNode after = second.gateway.get("/api/v1/sessions/" + id).json();
                assertThat(after.get("status").asText()).isEqualTo("AWAITING_APPROVAL");
                assertThat(after.get("pendingApprovals")).isEqualTo(before.get("pendingApprovals"));

                assertThat(decide(second.gateway, id, callId, "{\"decision\":\"approve\"}").status()).isEqualTo(202);
                List<EventEnvelope> log = second.gateway.awaitLog(id, e -> e.event() instanceof TurnEnded, WAIT);

                assertRanOnce(log, callId);
                assertThat(second.workspace(id).resolve("once.txt")).hasContent("once");
                assertThat(log).extracting(EventEnvelope::seq)
                        .containsExactlyElementsOf(LongStream.rangeClosed(1, log.size()).boxed().toList());
                assertThat(own.requestCount()).as("one request before the restart, one after the result")
                        .isEqualTo(2);
            }
        }
    }

    /**
     * The five services as OS processes (as in {@link FaultSuiteIT}), with {@code normal} as the installation default:
     * the orchestrator is killed with SIGKILL while an approval is pending, the person approves while it is dead, and
     * the restarted orchestrator takes the decision from the log and the command runs exactly once.
     */
    @Test
    void an_approval_decided_while_the_orchestrator_is_dead_runs_the_command_exactly_once_after_its_restart(
            @TempDir Path processDir) throws Exception {
        List<ServiceProcess> services = new java.util.ArrayList<>();
        try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.builder().dataDir(processDir.resolve("kafka")).build();
             ScriptedModelServer own = ScriptedModelServer.start()) {
            broker.start();
            try {
                int port;
                try (java.net.ServerSocket socket = new java.net.ServerSocket(0)) {
                    port = socket.getLocalPort();
                }
                Map<String, String> env = Map.of(
                        "AGENTBUS_KAFKA_BOOTSTRAP_SERVERS", broker.bootstrapServers(),
                        "AGENTBUS_KAFKA_PARTITIONS", "2",
                        "AGENTBUS_DATA_DIR", processDir.toString(),
                        "AGENTBUS_TOKEN", "approvals-token",
                        "AGENTBUS_GATEWAY_PORT", Integer.toString(port),
                        "AGENTBUS_PERMISSIONS_MODE", "normal",
                        "LLM_URL", own.baseUrl());
                Path logs = Path.of("target", "service-logs", "approvals");
                ServiceProcess orchestrator = new ServiceProcess("orchestrator",
                        OrchestratorApplication.class.getName(), env, logs);
                services.add(orchestrator);
                services.add(new ServiceProcess("sandbox-worker", SandboxWorkerApplication.class.getName(), env, logs));
                services.add(new ServiceProcess("scheduler", SchedulerApplication.class.getName(), env, logs));
                services.add(new ServiceProcess("gateway", GatewayApplication.class.getName(), env, logs));
                for (ServiceProcess service : services) {
                    service.start();
                }
                GatewayClient gw = new GatewayClient("http://127.0.0.1:" + port, "approvals-token");
                gw.awaitHealthy(Duration.ofSeconds(90));
                own.replyToolCall("shell", "{\"command\":\"echo once >> once.txt\"}").replyText("Done once.");

                String id = gw.createSession("crash while pending");
                gw.postMessage(id, "run it once");
                String callId = awaitApproval(gw, id);
                assertThat(gw.get("/api/v1/sessions/" + id).json().get("permissionMode").asText())
                        .as("the installation default").isEqualTo("normal");

                orchestrator.kill9();
                assertThat(decide(gw, id, callId, "{\"decision\":\"approve\"}").status())
                        .as("the decision is durable while the orchestrator is dead").isEqualTo(202);
                orchestrator.start();
                List<EventEnvelope> log = gw.awaitLog(id, e -> e.event() instanceof TurnEnded,
                        Duration.ofSeconds(120));

                assertRanOnce(log, callId);
                assertThat(events(log, ApprovalDecided.class)).singleElement()
                        .extracting(ApprovalDecided::decision).isEqualTo(ApprovalDecision.APPROVED);
                Path workspace = processDir.resolve("workspaces").resolve("local").resolve(id);
                assertThat(Files.readAllLines(workspace.resolve("once.txt"))).containsExactly("once");
                assertThat(log).extracting(EventEnvelope::seq)
                        .containsExactlyElementsOf(LongStream.rangeClosed(1, log.size()).boxed().toList());
                assertThat(own.requestCount()).as("one request before the crash, one after the result").isEqualTo(2);
            } finally {
                // Before the broker goes: a service without its broker takes long to stop.
                for (ServiceProcess service : services) {
                    service.close();
                }
            }
        }
    }

    private static String createInNormalMode(GatewayClient gw, String title) {
        GatewayClient.Response r = gw.post("/api/v1/sessions", "{\"title\":\"" + title + "\",\"mode\":\"normal\"}");
        assertThat(r.status()).isEqualTo(201);
        return r.json().get("id").asText();
    }

    /** Waits for the approval request, and until the gateway's view shows it; returns the call's id. */
    private static String awaitApproval(GatewayClient gw, String id) throws Exception {
        List<EventEnvelope> log = gw.awaitLog(id, e -> e.event() instanceof ApprovalRequested, WAIT);
        String callId = events(log, ApprovalRequested.class).getFirst().callId();
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (!gw.get("/api/v1/sessions/" + id).body().contains("AWAITING_APPROVAL")) {
            assertThat(System.nanoTime()).as("the view shows the approval").isLessThan(deadline);
            Thread.sleep(50);
        }
        return callId;
    }

    private static GatewayClient.Response decide(GatewayClient gw, String id, String callId, String body) {
        return gw.post("/api/v1/sessions/" + id + "/approvals/" + callId, body);
    }

    private static void assertRanOnce(List<EventEnvelope> log, String callId) {
        assertThat(events(log, ToolCallRequested.class)).filteredOn(r -> r.callId().equals(callId)).hasSize(1);
        assertThat(events(log, ToolCallStarted.class)).filteredOn(s -> s.callId().equals(callId)).hasSize(1);
        assertThat(events(log, ToolCallCompleted.class)).filteredOn(c -> c.callId().equals(callId))
                .singleElement().satisfies(c -> assertThat(c.ok()).isTrue());
    }
}
