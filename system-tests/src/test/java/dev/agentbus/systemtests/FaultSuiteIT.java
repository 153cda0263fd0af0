package dev.agentbus.systemtests;

import dev.agentbus.broker.EmbeddedKafkaBroker;
import dev.agentbus.events.session.EventEnvelope;
import dev.agentbus.events.session.SessionEvent.ModelCallCompleted;
import dev.agentbus.events.session.SessionEvent.ModelCallStarted;
import dev.agentbus.events.session.SessionEvent.SessionCreated;
import dev.agentbus.events.session.SessionEvent.SubAgentFinished;
import dev.agentbus.events.session.SessionEvent.SubAgentStarted;
import dev.agentbus.events.session.SessionEvent.ToolCallCompleted;
import dev.agentbus.events.session.SessionEvent.ToolCallRequested;
import dev.agentbus.events.session.SessionEvent.ToolCallStarted;
import dev.agentbus.events.session.SessionEvent.TurnEnded;
import dev.agentbus.events.session.SessionEvent.WaitEnded;
import dev.agentbus.events.session.SessionEvent.WaitScheduled;
import dev.agentbus.events.session.TurnOutcome;
import dev.agentbus.gateway.GatewayApplication;
import dev.agentbus.memory.MemoryServiceApplication;
import dev.agentbus.orchestrator.OrchestratorApplication;
import dev.agentbus.sandbox.SandboxWorkerApplication;
import dev.agentbus.scheduler.SchedulerApplication;
import dev.agentbus.testkit.model.ScriptedModelServer;
import dev.agentbus.testkit.model.ScriptedReply;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.LongStream;

import static dev.agentbus.systemtests.EndToEndIT.events;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The fault suite: the five services as separate OS processes against a real broker, and one fault per test
 * (SIGKILL of a service, or the broker stopping) in the middle of a session. After each restart the same promises
 * are checked ({@link #assertSessionSurvived}): the session completes, seq has no gap and no duplicate, no tool
 * call ran twice (a cut-short call is reported "interrupted, not re-run"), no recorded model decision was asked
 * again, and an SSE client that reconnects with Last-Event-ID saw every event exactly once.
 */
class FaultSuiteIT {
    static final String TOKEN = "crash-token";

    // One stack for the whole class: starting a broker and five JVMs costs far more than any test here. Each test
    // restarts what it broke, and the @AfterEach below puts back anything a failed test left dead.
    @TempDir
    static Path dir;
    static EmbeddedKafkaBroker broker;
    static ScriptedModelServer model;
    static final List<ServiceProcess> services = new ArrayList<>();
    static ServiceProcess orchestrator;
    static GatewayClient gateway;

    @BeforeAll
    static void start() throws Exception {
        broker = EmbeddedKafkaBroker.builder().dataDir(dir.resolve("kafka")).build();
        broker.start();
        model = ScriptedModelServer.start();
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        Map<String, String> env = Map.of(
                "AGENTBUS_KAFKA_BOOTSTRAP_SERVERS", broker.bootstrapServers(),
                "AGENTBUS_KAFKA_PARTITIONS", "2",
                "AGENTBUS_DATA_DIR", dir.toString(),
                "AGENTBUS_TOKEN", TOKEN,
                "AGENTBUS_GATEWAY_PORT", Integer.toString(port),
                "LLM_URL", model.baseUrl());
        Path logs = Path.of("target", "service-logs", "fault-suite");
        orchestrator = new ServiceProcess("orchestrator", OrchestratorApplication.class.getName(), env, logs);
        services.add(orchestrator);
        services.add(new ServiceProcess("sandbox-worker", SandboxWorkerApplication.class.getName(), env, logs));
        services.add(new ServiceProcess("scheduler", SchedulerApplication.class.getName(), env, logs));
        services.add(new ServiceProcess("memory-service", MemoryServiceApplication.class.getName(), env, logs));
        services.add(new ServiceProcess("gateway", GatewayApplication.class.getName(), env, logs));
        for (ServiceProcess p : services) {
            p.start();
        }
        gateway = new GatewayClient("http://127.0.0.1:" + port, TOKEN);
        gateway.awaitHealthy(Duration.ofSeconds(90));
    }

    @BeforeEach
    void freshScript() {
        model.reset();
    }

    /** A test that failed half-way may have left a service dead; the next test needs all five. */
    @AfterEach
    void restartWhatIsDead() throws Exception {
        boolean restarted = false;
        for (ServiceProcess p : services) {
            if (!p.isAlive()) {
                p.start();
                restarted = true;
            }
        }
        if (restarted) {
            gateway.awaitHealthy(Duration.ofSeconds(90));
        }
    }

    @AfterAll
    static void stop() throws Exception {
        for (ServiceProcess p : services) {
            p.close();
        }
        services.clear();
        if (model != null) {
            model.close();
        }
        if (broker != null) {
            broker.close();
        }
    }

    @Test
    void killing_the_orchestrator_after_a_model_response_was_recorded_neither_loses_nor_repeats_anything()
            throws Exception {
        // The model writes a file, then runs a command that reads it; the command is slow enough that the
        // orchestrator dies while it runs, and it leaves a trace of every run.
        model.replyToolCall("write", "{\"path\":\"hello.txt\",\"content\":\"hi\\n\"}")
                .replyToolCall("shell", "{\"command\":\"sleep 3; echo ran >> runs.txt; cat hello.txt\"}")
                .replyText("hello.txt contains: hi");
        String id = gateway.createSession("crash");
        try (SseFollower client = new SseFollower(gateway, id)) {
            gateway.postMessage(id, "create hello.txt containing hi, then show it");
            gateway.awaitLog(id, e -> e.event() instanceof ToolCallRequested r && r.name().equals("shell"),
                    Duration.ofSeconds(60));

            orchestrator.kill9();
            assertThat(orchestrator.isAlive()).isFalse();
            orchestrator.start();

            List<EventEnvelope> log = assertSessionSurvived(id, client, 3);
            TurnEnded end = events(log, TurnEnded.class).getFirst();
            assertThat(end.answer()).isEqualTo("hello.txt contains: hi");
            Path workspace = workspace(id);
            assertThat(workspace.resolve("hello.txt")).hasContent("hi");
            // the slow command ran exactly once, and every call's start and result were recorded once
            assertThat(Files.readAllLines(workspace.resolve("runs.txt"))).containsExactly("ran");
            assertThat(events(log, ToolCallStarted.class)).hasSize(2);
            assertThat(events(log, ToolCallCompleted.class)).hasSize(2).allSatisfy(c -> assertThat(c.ok()).isTrue());
            assertThat(events(log, ToolCallCompleted.class).getLast().output()).contains("hi");
            // token usage recorded for every model call
            assertThat(events(log, ModelCallCompleted.class))
                    .hasSize(3).allSatisfy(m -> assertThat(m.usage().totalTokens()).isPositive());
        }
    }

    @Test
    void killing_the_orchestrator_while_a_sub_agent_runs_neither_loses_nor_repeats_the_child() throws Exception {
        // The parent delegates; the child runs a slow command (it leaves a trace of every run) and the orchestrator,
        // which owns both sessions' logs, dies while it runs. The child's start was recorded once with the parent's
        // decision, and its result must reach the parent through the bus after the restart.
        model.replyToolCall("task", "{\"description\":\"count\",\"prompt\":\"Run the count.\","
                        + "\"tools\":[\"shell\"]}")
                .replyToolCall("shell", "{\"command\":\"sleep 3; echo ran >> runs.txt; echo counted 7\"}")
                .replyText("The count is 7.")
                .replyText("The sub-agent says: the count is 7.");
        String id = gateway.createSession("crash with a sub-agent");
        try (SseFollower client = new SseFollower(gateway, id)) {
            gateway.postMessage(id, "delegate the count");
            String child = events(gateway.awaitLog(id, e -> e.event() instanceof SubAgentStarted,
                    Duration.ofSeconds(60)), SubAgentStarted.class).getFirst().childSessionId();
            gateway.awaitLog(child, e -> e.event() instanceof ToolCallStarted, Duration.ofSeconds(60));

            orchestrator.kill9();
            assertThat(orchestrator.isAlive()).isFalse();
            orchestrator.start();

            // parent, child, child again with the command's result, parent again with the child's answer
            List<EventEnvelope> log = assertSessionSurvived(id, client, 4);
            assertThat(events(log, TurnEnded.class).getFirst().answer())
                    .isEqualTo("The sub-agent says: the count is 7.");
            assertThat(events(log, SubAgentStarted.class)).as("the child was started once").singleElement();
            assertThat(events(log, SubAgentFinished.class)).singleElement()
                    .satisfies(f -> assertThat(f.outcome()).isEqualTo(TurnOutcome.COMPLETED));
            assertThat(events(log, ToolCallCompleted.class)).singleElement()
                    .satisfies(c -> assertThat(c.output()).isEqualTo("The count is 7."));

            List<EventEnvelope> childLog = gateway.awaitLog(child, e -> e.event() instanceof TurnEnded,
                    Duration.ofSeconds(30));
            assertThat(childLog).as("the child's seq has no gap and no duplicate").extracting(EventEnvelope::seq)
                    .containsExactlyElementsOf(LongStream.rangeClosed(1, childLog.size()).boxed().toList());
            assertThat(childLog.stream().filter(e -> e.event() instanceof SessionCreated)).as("created once")
                    .hasSize(1);
            assertThat(events(childLog, TurnEnded.class)).singleElement()
                    .satisfies(t -> assertThat(t.answer()).isEqualTo("The count is 7."));
            assertThat(events(childLog, ToolCallStarted.class)).singleElement();
            assertThat(events(childLog, ToolCallCompleted.class)).singleElement()
                    .satisfies(c -> assertThat(c.output()).contains("counted 7"));
            assertThat(Files.readAllLines(workspace(child).resolve("runs.txt"))).as("the child's command ran once")
                    .containsExactly("ran");
            assertThat(gateway.get("/api/v1/sessions/" + id).json().get("children")).hasSize(1);
        }
    }

    @Test
    void killing_the_orchestrator_before_a_model_response_was_recorded_asks_only_that_decision_again()
            throws Exception {
        // The second answer is slow: the orchestrator dies while it waits for it, so that decision was never
        // recorded and may be asked again (invariant 3); the first one was recorded and must not be.
        model.replyToolCall("write", "{\"path\":\"a.txt\",\"content\":\"a\"}")
                .reply(ScriptedReply.text("never recorded").withDelay(Duration.ofSeconds(20)))
                .replyText("Done after the crash.");
        String id = gateway.createSession("crash before record");
        try (SseFollower client = new SseFollower(gateway, id)) {
            gateway.postMessage(id, "write a.txt");
            assertThat(model.awaitRequestCount(2, Duration.ofSeconds(60))).isTrue();
            // The gateway's log is a read model that trails the topic by up to a projector poll, so wait for the
            // second start to show up rather than read once: the model already has the request, so it is in Kafka.
            List<EventEnvelope> before = gateway.awaitLog(id,
                    e -> e.event() instanceof ModelCallStarted s && s.iteration() == 2, Duration.ofSeconds(10));
            assertThat(events(before, ModelCallStarted.class)).hasSize(2);
            assertThat(events(before, ModelCallCompleted.class)).as("only the first answer is recorded").hasSize(1);

            orchestrator.kill9();
            orchestrator.start();

            // 3 requests: the recorded decision once, the unrecorded one twice (it had no effect the first time)
            List<EventEnvelope> log = assertSessionSurvived(id, client, 3);
            assertThat(events(log, TurnEnded.class).getFirst().answer()).isEqualTo("Done after the crash.");
            // the same decision: the same conversation (the system prompt differs only in the current time)
            assertThat(conversation(model.requests().get(2))).as("the re-asked call is the same decision")
                    .isEqualTo(conversation(model.requests().get(1)));
            assertThat(events(log, ModelCallCompleted.class)).hasSize(2);
            assertThat(events(log, ToolCallCompleted.class)).singleElement().satisfies(c -> assertThat(c.ok()).isTrue());
            assertThat(workspace(id).resolve("a.txt")).hasContent("a");
        }
    }

    @Test
    void a_call_cut_short_by_a_sandbox_worker_crash_is_reported_interrupted_and_never_run_again() throws Exception {
        ServiceProcess worker = services.get(1);
        // An unusual duration, so the command's sleep can be told apart from every other process on this host.
        model.replyToolCall("shell", "{\"command\":\"echo start >> runs.txt; sleep 5.4321; echo end >> runs.txt\"}")
                .replyText("The command was interrupted; I will not retry it.");
        String id = gateway.createSession("worker crash");
        try (SseFollower client = new SseFollower(gateway, id)) {
            gateway.postMessage(id, "run the long command");
            gateway.awaitLog(id, e -> e.event() instanceof ToolCallStarted, Duration.ofSeconds(60));
            Path runs = workspace(id).resolve("runs.txt");
            awaitFile(runs, Duration.ofSeconds(10));

            worker.kill9();
            worker.start();

            List<EventEnvelope> log = assertSessionSurvived(id, client, 2);
            ToolCallCompleted result = events(log, ToolCallCompleted.class).getFirst();
            assertThat(result.interrupted()).isTrue();
            assertThat(result.ok()).isFalse();
            assertThat(result.error()).contains("interrupted").contains("not run again");
            assertThat(events(log, ToolCallCompleted.class)).hasSize(1);
            // it started once, died with the worker (its sleep is gone from the host), and was not started again
            awaitNoProcess("sleep 5.4321", Duration.ofSeconds(30));
            assertThat(Files.readAllLines(runs)).containsExactly("start");
        }
    }

    @Test
    void killing_the_gateway_under_an_attached_sse_client_loses_no_event_and_repeats_none() throws Exception {
        ServiceProcess gatewayProcess = services.get(4);
        model.replyToolCall("shell", "{\"command\":\"sleep 4; echo ran >> runs.txt\"}")
                .replyText("Ran it.");
        String id = gateway.createSession("gateway crash");
        try (SseFollower client = new SseFollower(gateway, id)) {
            gateway.postMessage(id, "run it");
            gateway.awaitLog(id, e -> e.event() instanceof ToolCallStarted, Duration.ofSeconds(60));
            client.awaitSeq(gateway.log(id).size(), Duration.ofSeconds(30));
            int connectionsBefore = client.connections();

            gatewayProcess.kill9();
            gatewayProcess.start();
            gateway.awaitHealthy(Duration.ofSeconds(90));

            List<EventEnvelope> log = assertSessionSurvived(id, client, 2);
            assertThat(client.connections()).as("the client reconnected").isGreaterThan(connectionsBefore);
            assertThat(Files.readAllLines(workspace(id).resolve("runs.txt"))).containsExactly("ran");
            assertThat(events(log, ToolCallCompleted.class)).singleElement().satisfies(c -> assertThat(c.ok()).isTrue());
        }
    }

    @Test
    void pending_waits_survive_a_scheduler_crash() throws Exception {
        ServiceProcess scheduler = services.get(2);
        java.time.Instant until = java.time.Instant.now().plusSeconds(25).truncatedTo(java.time.temporal.ChronoUnit.SECONDS);
        model.replyText("WAIT: " + until + ": later").replyText("Woke up.");
        String id = gateway.createSession("wait crash");
        try (SseFollower client = new SseFollower(gateway, id)) {
            gateway.postMessage(id, "wait a bit");
            gateway.awaitLog(id, e -> e.event() instanceof WaitScheduled, Duration.ofSeconds(30));

            scheduler.kill9();
            scheduler.start();

            List<EventEnvelope> log = assertSessionSurvived(id, client, 2);
            assertThat(events(log, TurnEnded.class).getFirst().answer()).isEqualTo("Woke up.");
            EventEnvelope ended = log.stream().filter(e -> e.event() instanceof WaitEnded).findFirst().orElseThrow();
            assertThat(ended.time()).isAfterOrEqualTo(until);
            assertThat(Duration.between(until, ended.time()).toMillis()).isLessThan(1500);
        }
    }

    @Test
    void a_session_survives_the_broker_stopping_and_starting_again_mid_tool() throws Exception {
        model.replyToolCall("shell", "{\"command\":\"echo ran >> runs.txt; sleep 4; echo done\"}")
                .replyText("Finished.");
        String id = gateway.createSession("broker restart");
        try (SseFollower client = new SseFollower(gateway, id)) {
            gateway.postMessage(id, "run it");
            gateway.awaitLog(id, e -> e.event() instanceof ToolCallStarted, Duration.ofSeconds(60));

            broker.restart();

            List<EventEnvelope> log = assertSessionSurvived(id, client, 2);
            assertThat(events(log, ToolCallCompleted.class)).singleElement()
                    .satisfies(c -> assertThat(c.output()).contains("done"));
            assertThat(Files.readAllLines(workspace(id).resolve("runs.txt"))).containsExactly("ran");
        }
    }

    /**
     * The promises every fault must keep. Returns the session's complete log.
     *
     * @param modelRequests how many requests the model server must have had in all: one per recorded decision,
     *                      plus one per decision that was started but not recorded when the fault hit
     */
    private List<EventEnvelope> assertSessionSurvived(String id, SseFollower client, int modelRequests)
            throws Exception {
        List<EventEnvelope> log = gateway.awaitLog(id, e -> e.event() instanceof TurnEnded, Duration.ofSeconds(150));
        assertThat(events(log, TurnEnded.class)).as("the session completes")
                .singleElement().satisfies(t -> assertThat(t.outcome()).isEqualTo(TurnOutcome.COMPLETED));
        assertThat(log).as("seq has no gap and no duplicate").extracting(EventEnvelope::seq)
                .containsExactlyElementsOf(LongStream.rangeClosed(1, log.size()).boxed().toList());
        List<String> started = events(log, ToolCallStarted.class).stream().map(ToolCallStarted::callId).toList();
        assertThat(started).as("no tool call started twice").doesNotHaveDuplicates();
        List<String> answered = events(log, ToolCallCompleted.class).stream().map(ToolCallCompleted::callId).toList();
        // Calls go out to the worker (requested) or to a sub-agent (started); each comes back once.
        List<String> sentOut = new ArrayList<>(events(log, ToolCallRequested.class).stream()
                .map(ToolCallRequested::callId).toList());
        events(log, SubAgentStarted.class).forEach(s -> sentOut.add(s.callId()));
        assertThat(answered).as("every call answered exactly once").doesNotHaveDuplicates()
                .containsExactlyInAnyOrderElementsOf(sentOut);
        assertThat(model.requestCount()).as("no recorded model decision was asked again").isEqualTo(modelRequests);
        client.awaitSeq(log.size(), Duration.ofSeconds(60));
        assertThat(client.received()).as("the SSE client saw every event exactly once, across reconnects")
                .containsExactlyElementsOf(LongStream.rangeClosed(1, log.size()).boxed().toList());
        return log;
    }

    /** A request's messages without the system prompt, which states the current time. */
    private static List<com.fasterxml.jackson.databind.JsonNode> conversation(com.fasterxml.jackson.databind.JsonNode request) {
        List<com.fasterxml.jackson.databind.JsonNode> messages = new ArrayList<>();
        request.get("messages").forEach(messages::add);
        assertThat(messages.getFirst().get("role").asText()).isEqualTo("system");
        return messages.subList(1, messages.size());
    }

    /**
     * Waits until no process on this host has {@code commandLine} in its command line. Sandboxed processes are
     * visible from the host (Docker and bubblewrap only hide the host from them, not the other way round).
     */
    private static void awaitNoProcess(String commandLine, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (ProcessHandle.allProcesses().anyMatch(p -> p.info().commandLine().orElse("").contains(commandLine))) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("a process running '" + commandLine + "' is still alive after " + timeout);
            }
            Thread.sleep(50);
        }
    }

    private Path workspace(String sessionId) {
        return dir.resolve("workspaces").resolve("local").resolve(sessionId);
    }

    private static void awaitFile(Path file, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!Files.exists(file)) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError(file + " did not appear");
            }
            Thread.sleep(50);
        }
    }

}
