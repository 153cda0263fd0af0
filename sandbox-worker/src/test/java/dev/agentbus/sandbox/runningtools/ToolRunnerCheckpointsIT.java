package dev.agentbus.sandbox.runningtools;

import dev.agentbus.sandbox.tools.NoSandboxes;
import dev.agentbus.broker.EmbeddedKafkaBroker;
import dev.agentbus.eventbus.KafkaSettings;
import dev.agentbus.eventbus.TopicAdmin;
import dev.agentbus.events.codec.EventCodec;
import dev.agentbus.events.input.InputEnvelope;
import dev.agentbus.events.input.SessionInput.MarkToolCallStarted;
import dev.agentbus.events.input.SessionInput.RecordToolResult;
import dev.agentbus.events.ledger.ToolLedgerEntry;
import dev.agentbus.events.session.EventEnvelope;
import dev.agentbus.events.session.SessionEvent;
import dev.agentbus.events.session.SessionEvent.SessionForked;
import dev.agentbus.events.session.SessionEvent.ToolCallRequested;
import dev.agentbus.events.state.SessionFold;
import dev.agentbus.events.state.SessionState;
import dev.agentbus.events.topics.Topics;
import dev.agentbus.sandbox.checkpointing.Checkpoints;
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
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The runner with a real broker, real files and real git: results carry the checkpoint of calls that changed files,
 * a person's rewind restores one, and a fork's workspace is restored before the fork's first call runs.
 */
class ToolRunnerCheckpointsIT {
    @TempDir
    static Path dir;
    static EmbeddedKafkaBroker broker;
    static KafkaSettings kafka;
    static ToolRunner runner;
    static KafkaProducer<String, byte[]> orchestrator;
    static KafkaConsumer<String, byte[]> inputs;
    static Workspaces workspaces;
    static final Map<String, RecordToolResult> results = new HashMap<>();
    /** Every input the runner wrote, in log order: "started <call>" or "result <call>". */
    static final List<String> written = new ArrayList<>();
    static final AtomicLong seqs = new AtomicLong();

    @BeforeAll
    static void start() {
        broker = EmbeddedKafkaBroker.builder().dataDir(dir.resolve("kafka")).build();
        broker.start();
        kafka = new KafkaSettings(broker.bootstrapServers(), 1, "0");
        TopicAdmin.ensureTopics(kafka);
        workspaces = new Workspaces(dir.resolve("workspaces"));
        runner = new ToolRunner(kafka, new ToolExecutor(SandboxSettings.defaults(), NoSandboxes.INSTANCE), workspaces,
                new Checkpoints(workspaces.root(), Clock.systemUTC()), Clock.systemUTC(), 2);
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

    /** Appends an event to the session log, as the orchestrator would. */
    static void append(String user, String session, SessionEvent event) throws Exception {
        EventEnvelope e = new EventEnvelope(UUID.randomUUID().toString(), session, seqs.incrementAndGet(),
                Instant.now(), null, user, event);
        orchestrator.send(new ProducerRecord<>(Topics.SESSION_EVENTS.name(), session, EventCodec.encodeEvent(e))).get();
    }

    static RecordToolResult awaitResult(String callId) {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (!results.containsKey(callId)) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("no result for " + callId + "; have " + results.keySet());
            }
            for (ConsumerRecord<String, byte[]> r : inputs.poll(Duration.ofMillis(100))) {
                InputEnvelope in = EventCodec.decodeInput(r.value());
                if (in.input() instanceof RecordToolResult result) {
                    results.put(result.callId(), result);
                    written.add("result " + result.callId());
                } else if (in.input() instanceof MarkToolCallStarted started) {
                    written.add("started " + started.callId());
                }
            }
        }
        return results.get(callId);
    }

    static String write(String path, String content) {
        return "{\"path\":\"" + path + "\",\"content\":\"" + content + "\"}";
    }

    @Test
    void a_call_that_changed_files_reports_a_checkpoint_and_a_read_does_not() throws Exception {
        append("alice", "s1", new ToolCallRequested("w1", "write", write("a.txt", "one")));
        append("alice", "s1", new ToolCallRequested("r1", "read", "{\"path\":\"a.txt\"}"));
        append("alice", "s1", new ToolCallRequested("w2", "write", write("a.txt", "two")));

        RecordToolResult first = awaitResult("w1");
        RecordToolResult read = awaitResult("r1");
        RecordToolResult second = awaitResult("w2");

        assertThat(first.ok()).isTrue();
        assertThat(first.checkpoint()).matches("[0-9a-f]{40}");
        assertThat(read.ok()).isTrue();
        assertThat(read.checkpoint()).isNull();
        assertThat(second.checkpoint()).matches("[0-9a-f]{40}").isNotEqualTo(first.checkpoint());

        // a person rewinds to the first checkpoint; the rewind is checkpointed too
        append("alice", "s1", new ToolCallRequested("u1", "rewind",
                "{\"checkpoint\":\"" + first.checkpoint() + "\"}", null, true));
        RecordToolResult rewind = awaitResult("u1");
        assertThat(rewind.ok()).as(rewind.error()).isTrue();
        assertThat(rewind.output()).contains("restored the workspace to checkpoint " + first.checkpoint());
        assertThat(rewind.checkpoint()).isNotNull().isNotIn(first.checkpoint(), second.checkpoint());
        assertThat(workspaces.forSession("alice", "s1").resolve("a.txt")).hasContent("one");

        // the model may not rewind
        append("alice", "s1", new ToolCallRequested("m1", "rewind",
                "{\"checkpoint\":\"" + second.checkpoint() + "\"}"));
        RecordToolResult byModel = awaitResult("m1");
        assertThat(byModel.ok()).isFalse();
        assertThat(byModel.error()).contains("only be run by a person");
        assertThat(workspaces.forSession("alice", "s1").resolve("a.txt")).hasContent("one");
    }

    @Test
    void a_call_that_only_reads_is_started_and_answered_in_one_transaction_with_no_started_entry() throws Exception {
        append("carol", "s3", new ToolCallRequested("ls1", "ls", "{}"));
        append("carol", "s3", new ToolCallRequested("w3", "write", write("b.txt", "x")));

        assertThat(awaitResult("ls1").ok()).isTrue();
        assertThat(awaitResult("w3").ok()).isTrue();

        // "started" comes right before the result, as the orchestrator expects of any call
        assertThat(written).containsSubsequence("started ls1", "result ls1");
        assertThat(written.indexOf("result ls1")).isEqualTo(written.indexOf("started ls1") + 1);
        // the ledger has FINISHED for both, and STARTED only for the call that writes
        Map<String, List<ToolLedgerEntry.State>> ledger = ledgerStates("s3");
        assertThat(ledger.get("ls1")).containsExactly(ToolLedgerEntry.State.FINISHED);
        assertThat(ledger.get("w3")).containsExactly(ToolLedgerEntry.State.STARTED, ToolLedgerEntry.State.FINISHED);
    }

    /** The ledger entries of one session, per call, in log order. */
    static Map<String, List<ToolLedgerEntry.State>> ledgerStates(String session) {
        Map<String, List<ToolLedgerEntry.State>> states = new HashMap<>();
        try (KafkaConsumer<String, byte[]> ledger = new KafkaConsumer<>(kafka.consumer(null, "test-ledger"))) {
            var partitions = ledger.partitionsFor(Topics.TOOL_LEDGER.name()).stream()
                    .map(p -> new org.apache.kafka.common.TopicPartition(p.topic(), p.partition())).toList();
            ledger.assign(partitions);
            ledger.seekToBeginning(partitions);
            Map<org.apache.kafka.common.TopicPartition, Long> end = ledger.endOffsets(partitions);
            while (partitions.stream().anyMatch(p -> ledger.position(p) < end.get(p))) {
                for (ConsumerRecord<String, byte[]> r : ledger.poll(Duration.ofMillis(200))) {
                    ToolLedgerEntry e = EventCodec.decodeValue(r.value(), ToolLedgerEntry.class);
                    if (e.sessionId().equals(session)) {
                        states.computeIfAbsent(e.callId(), k -> new ArrayList<>()).add(e.state());
                    }
                }
            }
        }
        return states;
    }

    @Test
    void a_forks_workspace_is_restored_before_its_first_call_runs() throws Exception {
        append("alice", "src", new ToolCallRequested("fw1", "write", write("f.txt", "at the fork")));
        String atFork = awaitResult("fw1").checkpoint();
        append("alice", "src", new ToolCallRequested("fw2", "write", write("f.txt", "later")));
        awaitResult("fw2");
        SessionState sourceState = SessionFold.fold("src", List.of(new EventEnvelope("e1", "src", 1, Instant.now(),
                null, "alice", new SessionEvent.SessionCreated("source"))));

        // bob forks alice's session (the source's owner is in the carried state), and asks to read the file at once
        append("bob", "fork1", new SessionForked("src", 7, atFork, "fork", sourceState));
        append("bob", "fork1", new ToolCallRequested("fr1", "read", "{\"path\":\"f.txt\"}", null, true));

        RecordToolResult read = awaitResult("fr1");
        assertThat(read.ok()).as(read.error()).isTrue();
        assertThat(read.output()).contains("at the fork");
        assertThat(workspaces.forSession("alice", "src").resolve("f.txt")).hasContent("later");
        assertThat(Files.exists(workspaces.root().resolve(".checkpoints/bob/fork1.git/HEAD"))).isTrue();
    }
}
