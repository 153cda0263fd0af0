package dev.agentbus.systemtests;

import dev.agentbus.broker.EmbeddedKafkaBroker;
import dev.agentbus.events.session.EventEnvelope;
import dev.agentbus.events.session.SessionEvent.ToolCallCompleted;
import dev.agentbus.events.session.SessionEvent.ToolCallRequested;
import dev.agentbus.events.session.SessionEvent.ToolCallStarted;
import dev.agentbus.events.session.SessionEvent.TurnEnded;
import dev.agentbus.events.session.TurnOutcome;
import dev.agentbus.gateway.GatewayApplication;
import dev.agentbus.memory.MemoryServiceApplication;
import dev.agentbus.orchestrator.OrchestratorApplication;
import dev.agentbus.sandbox.SandboxWorkerApplication;
import dev.agentbus.scheduler.SchedulerApplication;
import dev.agentbus.testkit.model.ScriptedModelServer;
import org.junit.jupiter.api.AfterEach;
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

import static dev.agentbus.systemtests.EndToEndTest.events;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The five services as separate OS processes against a real broker. The orchestrator is killed with SIGKILL after
 * it recorded a tool call and restarted: the session must complete, the tool must have run exactly once, and the
 * model must not have been asked again for a decision that was already recorded.
 */
class CrashRecoveryTest {
    static final String TOKEN = "crash-token";

    @TempDir
    Path dir;
    EmbeddedKafkaBroker broker;
    ScriptedModelServer model;
    final List<ServiceProcess> services = new ArrayList<>();
    ServiceProcess orchestrator;
    GatewayClient gateway;

    @BeforeEach
    void start() throws Exception {
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
        Path logs = Path.of("target", "service-logs", "crash-recovery");
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
        awaitHealthy(Duration.ofSeconds(90));
    }

    @AfterEach
    void stop() throws Exception {
        for (ServiceProcess p : services) {
            p.close();
        }
        if (model != null) {
            model.close();
        }
        if (broker != null) {
            broker.close();
        }
    }

    @Test
    void killing_the_orchestrator_after_a_tool_call_was_requested_neither_loses_nor_repeats_anything()
            throws Exception {
        // The model writes a file, then runs a command that reads it; the command is slow enough that the
        // orchestrator dies while it runs, and it leaves a trace of every run.
        model.replyToolCall("write", "{\"path\":\"hello.txt\",\"content\":\"hi\\n\"}")
                .replyToolCall("shell", "{\"command\":\"sleep 3; echo ran >> runs.txt; cat hello.txt\"}")
                .replyText("hello.txt contains: hi");
        String id = gateway.createSession("crash");
        gateway.postMessage(id, "create hello.txt containing hi, then show it");
        gateway.awaitLog(id, e -> e.event() instanceof ToolCallRequested r && r.name().equals("shell"),
                Duration.ofSeconds(60));

        orchestrator.kill9();
        assertThat(orchestrator.isAlive()).isFalse();
        orchestrator.start();

        List<EventEnvelope> log = gateway.awaitLog(id, e -> e.event() instanceof TurnEnded, Duration.ofSeconds(120));
        TurnEnded end = events(log, TurnEnded.class).getFirst();
        assertThat(end.outcome()).isEqualTo(TurnOutcome.COMPLETED);
        assertThat(end.answer()).isEqualTo("hello.txt contains: hi");
        Path workspace = dir.resolve("workspaces").resolve("local").resolve(id);
        assertThat(workspace.resolve("hello.txt")).hasContent("hi");
        // the slow command ran exactly once, and every call's start and result were recorded once
        assertThat(Files.readAllLines(workspace.resolve("runs.txt"))).containsExactly("ran");
        assertThat(events(log, ToolCallStarted.class)).hasSize(2);
        assertThat(events(log, ToolCallCompleted.class)).hasSize(2).allSatisfy(c -> assertThat(c.ok()).isTrue());
        assertThat(events(log, ToolCallCompleted.class).getLast().output()).contains("hi");
        // seq 1..N with no gap and no duplicate, across the crash
        assertThat(log).extracting(EventEnvelope::seq)
                .containsExactlyElementsOf(LongStream.rangeClosed(1, log.size()).boxed().toList());
        // token usage recorded for every model call
        assertThat(events(log, dev.agentbus.events.session.SessionEvent.ModelCallCompleted.class))
                .hasSize(3).allSatisfy(m -> assertThat(m.usage().totalTokens()).isPositive());
        // three decisions, each asked once: the recorded ones were not asked for again
        assertThat(model.requestCount()).isEqualTo(3);
    }

    @Test
    void a_call_cut_short_by_a_sandbox_worker_crash_is_reported_interrupted_and_never_run_again() throws Exception {
        ServiceProcess worker = services.get(1);
        model.replyToolCall("shell", "{\"command\":\"echo start >> runs.txt; sleep 5; echo end >> runs.txt\"}")
                .replyText("The command was interrupted; I will not retry it.");
        String id = gateway.createSession("worker crash");
        gateway.postMessage(id, "run the long command");
        gateway.awaitLog(id, e -> e.event() instanceof ToolCallStarted, Duration.ofSeconds(60));
        Path runs = dir.resolve("workspaces").resolve("local").resolve(id).resolve("runs.txt");
        awaitFile(runs, Duration.ofSeconds(10));

        worker.kill9();
        worker.start();

        List<EventEnvelope> log = gateway.awaitLog(id, e -> e.event() instanceof TurnEnded, Duration.ofSeconds(90));
        ToolCallCompleted result = events(log, ToolCallCompleted.class).getFirst();
        assertThat(result.interrupted()).isTrue();
        assertThat(result.ok()).isFalse();
        assertThat(result.error()).contains("interrupted").contains("not run again");
        assertThat(events(log, ToolCallCompleted.class)).hasSize(1);
        // it started once, died with the worker, and was not started again
        Thread.sleep(6000);
        assertThat(Files.readAllLines(runs)).containsExactly("start");
        assertThat(events(log, TurnEnded.class).getFirst().outcome()).isEqualTo(TurnOutcome.COMPLETED);
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

    @Test
    void pending_waits_survive_a_scheduler_crash() throws Exception {
        ServiceProcess scheduler = services.get(2);
        java.time.Instant until = java.time.Instant.now().plusSeconds(25).truncatedTo(java.time.temporal.ChronoUnit.SECONDS);
        model.replyText("WAIT: " + until + ": later").replyText("Woke up.");
        String id = gateway.createSession("wait crash");
        gateway.postMessage(id, "wait a bit");
        gateway.awaitLog(id, e -> e.event() instanceof dev.agentbus.events.session.SessionEvent.WaitScheduled,
                Duration.ofSeconds(30));

        scheduler.kill9();
        scheduler.start();

        List<EventEnvelope> log = gateway.awaitLog(id, e -> e.event() instanceof TurnEnded, Duration.ofSeconds(60));
        assertThat(events(log, TurnEnded.class).getFirst().answer()).isEqualTo("Woke up.");
        EventEnvelope ended = log.stream()
                .filter(e -> e.event() instanceof dev.agentbus.events.session.SessionEvent.WaitEnded)
                .findFirst().orElseThrow();
        assertThat(ended.time()).isAfterOrEqualTo(until);
        assertThat(Duration.between(until, ended.time()).toMillis()).isLessThan(1500);
    }

    private void awaitHealthy(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            try {
                if (gateway.get("/health").status() == 200) {
                    return;
                }
            } catch (AssertionError notYet) {
                // not listening yet
            }
            Thread.sleep(250);
        }
        throw new AssertionError("the gateway did not become healthy within " + timeout);
    }
}
