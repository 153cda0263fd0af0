package dev.agentbus.sandbox.runningtools;

import dev.agentbus.broker.EmbeddedKafkaBroker;
import dev.agentbus.eventbus.KafkaSettings;
import dev.agentbus.eventbus.TopicAdmin;
import dev.agentbus.events.codec.EventCodec;
import dev.agentbus.events.input.InputEnvelope;
import dev.agentbus.events.input.SessionInput.MarkToolCallStarted;
import dev.agentbus.events.input.SessionInput.RecordToolResult;
import dev.agentbus.events.session.EventEnvelope;
import dev.agentbus.events.session.SessionEvent;
import dev.agentbus.events.session.SessionEvent.ToolCallRequested;
import dev.agentbus.events.session.SessionEvent.TurnEnded;
import dev.agentbus.events.session.TurnOutcome;
import dev.agentbus.events.topics.Topics;
import dev.agentbus.sandbox.sandboxing.SandboxConfig;
import dev.agentbus.sandbox.sandboxing.Sandboxes;
import dev.agentbus.sandbox.tools.SandboxSettings;
import dev.agentbus.sandbox.tools.ToolExecutor;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Stop means stop: when a turn is cancelled, the worker kills the command its call is running (a real shell in a
 * bubblewrap sandbox, a real broker) and reports the call's result once, as cancelled, within seconds instead of
 * when the command would have ended. The calls queued behind it in the session are not run.
 */
class CancelledCallIT {
    @TempDir
    static Path dir;
    static EmbeddedKafkaBroker broker;
    static KafkaSettings kafka;
    static Sandboxes sandboxes;
    static ToolRunner runner;
    static KafkaProducer<String, byte[]> orchestrator;
    static KafkaConsumer<String, byte[]> inputs;
    static final List<InputEnvelope> written = new ArrayList<>();
    static final AtomicLong seqs = new AtomicLong();

    @BeforeAll
    static void start() {
        broker = EmbeddedKafkaBroker.builder().dataDir(dir.resolve("kafka")).build();
        broker.start();
        kafka = new KafkaSettings(broker.bootstrapServers(), 1, "0");
        TopicAdmin.ensureTopics(kafka);
        sandboxes = new Sandboxes(SandboxConfig.defaults().withBackend(SandboxConfig.Backend.BUBBLEWRAP)
                .withWorkerId("cancel-it-" + ProcessHandle.current().pid()));
        assertThat(sandboxes.unavailableReason()).as("the bubblewrap backend must be available").isEmpty();
        runner = new ToolRunner(kafka, new ToolExecutor(SandboxSettings.defaults(), sandboxes),
                new Workspaces(dir.resolve("workspaces")), Clock.systemUTC(), 2);
        runner.start();
        orchestrator = new KafkaProducer<>(kafka.producer("test-orchestrator"));
        inputs = new KafkaConsumer<>(kafka.consumer("test-reader", "test-reader"));
        inputs.subscribe(List.of(Topics.SESSION_INPUTS.name()));
    }

    @AfterAll
    static void stop() {
        if (runner != null) {
            runner.close();
        }
        if (sandboxes != null) {
            sandboxes.close();
        }
        if (orchestrator != null) {
            orchestrator.close();
        }
        if (inputs != null) {
            inputs.close();
        }
        if (broker != null) {
            broker.close();
        }
    }

    static void append(String session, SessionEvent event) throws Exception {
        EventEnvelope e = new EventEnvelope(UUID.randomUUID().toString(), session, seqs.incrementAndGet(),
                Instant.now(), null, "alice", event);
        orchestrator.send(new ProducerRecord<>(Topics.SESSION_EVENTS.name(), session, EventCodec.encodeEvent(e))).get();
    }

    /** Reads inputs until {@code done} holds for what was written, at most {@code timeout}. */
    static void readUntil(java.util.function.Predicate<List<InputEnvelope>> done, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!done.test(written) && System.nanoTime() < deadline) {
            for (ConsumerRecord<String, byte[]> r : inputs.poll(Duration.ofMillis(100))) {
                written.add(EventCodec.decodeInput(r.value()));
            }
        }
    }

    static List<RecordToolResult> results(String callId) {
        return written.stream().map(InputEnvelope::input).filter(i -> i instanceof RecordToolResult r
                && r.callId().equals(callId)).map(RecordToolResult.class::cast).toList();
    }

    @Test
    void a_cancelled_turn_kills_its_sleep_30_within_seconds_and_reports_it_once_as_cancelled() throws Exception {
        String session = "s-cancel";
        append(session, new ToolCallRequested("c1", "shell",
                "{\"command\":\"echo begun > begun.txt; sleep 30; echo never\"}"));
        append(session, new ToolCallRequested("c2", "shell", "{\"command\":\"echo queued behind\"}"));
        readUntil(w -> w.stream().anyMatch(i -> i.input() instanceof MarkToolCallStarted s
                && s.callId().equals("c1")), Duration.ofSeconds(60));
        // The command is under way in its shell once it wrote its first file.
        Path begun = dir.resolve("workspaces").resolve("alice").resolve(session).resolve("begun.txt");
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (!Files.exists(begun)) {
            assertThat(System.nanoTime()).as("the command started").isLessThan(deadline);
            Thread.sleep(20);
        }

        long cancelledAt = System.nanoTime();
        append(session, new TurnEnded(TurnOutcome.CANCELLED, null, "cancelled by the user"));
        readUntil(w -> !results("c1").isEmpty() && !results("c2").isEmpty(), Duration.ofSeconds(30));
        Duration took = Duration.ofNanos(System.nanoTime() - cancelledAt);

        assertThat(took).as("killed, not waited for").isLessThan(Duration.ofSeconds(10));
        assertThat(results("c1")).singleElement().satisfies(r -> {
            assertThat(r.ok()).isFalse();
            assertThat(r.error()).startsWith("cancelled: the turn was cancelled while this call ran");
            assertThat(r.output()).doesNotContain("never");
        });
        assertThat(results("c2")).singleElement().satisfies(r -> {
            assertThat(r.ok()).isFalse();
            assertThat(r.error()).isEqualTo("not run: the turn was cancelled before this call started");
        });

        // The session's next call runs in a new shell as usual, and nothing reports c1 again.
        append(session, new ToolCallRequested("c3", "shell", "{\"command\":\"echo still works\"}"));
        readUntil(w -> !results("c3").isEmpty(), Duration.ofSeconds(60));
        assertThat(results("c3")).singleElement().satisfies(r -> assertThat(r.output()).contains("still works"));
        assertThat(results("c1")).hasSize(1);
    }
}
