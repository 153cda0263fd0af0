package dev.agentbus.orchestrator.running;

import dev.agentbus.eventbus.Records;
import dev.agentbus.eventbus.TraceHeaders;
import dev.agentbus.events.codec.EventCodec;
import dev.agentbus.events.input.InputEnvelope;
import dev.agentbus.events.input.SessionInput;
import dev.agentbus.events.memory.MemoryDocument;
import dev.agentbus.events.session.EventEnvelope;
import dev.agentbus.events.session.PermissionMode;
import dev.agentbus.events.session.SessionEvent;
import dev.agentbus.events.state.SessionFold;
import dev.agentbus.events.state.SessionSnapshot;
import dev.agentbus.events.topics.Topics;
import dev.agentbus.modelclient.ModelSettings;
import dev.agentbus.orchestrator.prompting.PromptBuilder;
import dev.agentbus.testkit.model.ScriptedModelServer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.LongStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The real engine against a real broker and the scripted model server: it writes a snapshot every N events of a
 * session, each one the fold of the log up to its seq at the offset of that event; and a new engine taking over
 * starts from them and carries the session on without a gap.
 */
class SnapshottingEngineIT {
    static final String SESSION = "ses-snap";
    static final int EVERY = 5;

    @TempDir
    Path dir;
    KafkaTopics topics;
    ScriptedModelServer model;
    KafkaProducer<String, byte[]> inputs;
    final List<AutoCloseable> running = new ArrayList<>();

    @BeforeEach
    void start() throws Exception {
        topics = new KafkaTopics(dir, 1);
        topics.recreate();
        model = ScriptedModelServer.start();
        inputs = new KafkaProducer<>(topics.kafka.producer("test-inputs"));
    }

    @AfterEach
    void stop() throws Exception {
        for (AutoCloseable c : running) {
            c.close();
        }
        inputs.close();
        model.close();
        topics.close();
    }

    @Test
    void the_engine_snapshots_every_n_events_and_a_new_engine_carries_on_from_the_snapshots() throws Exception {
        SessionEngine first = engine();
        send(new SessionInput.CreateSession("snapshots"));
        for (int turn = 1; turn <= 4; turn++) {
            model.replyText("answer " + turn);
            send(new SessionInput.PostUserMessage("question " + turn));
            awaitTurnsEnded(turn);
        }
        first.close();
        running.remove(first);

        List<EventEnvelope> log = events();
        Map<String, ConsumerRecord<String, byte[]>> snapshotRecords = snapshots();
        assertThat(snapshotRecords).containsOnlyKeys(SESSION);
        SessionSnapshot snapshot = SessionSnapshot.decode(SESSION, snapshotRecords.get(SESSION).value());
        assertThat(snapshot.seq()).as("at least one snapshot round, at most one behind the end")
                .isGreaterThanOrEqualTo(EVERY).isGreaterThan(log.size() - EVERY - 2L);
        assertThat(snapshot.state()).as("the snapshot is the fold of the log up to its seq")
                .isEqualTo(SessionFold.fold(SESSION, log.subList(0, (int) snapshot.seq())));
        assertThat(offsets().get(snapshot.seq())).as("its offset is its last event's").isEqualTo(snapshot.eventOffset());

        SessionLogLoader.LoadedPartition cold = new SessionLogLoader(topics.kafka, true).load(0);
        assertThat(cold.stats().snapshotsUsed()).isEqualTo(1);
        assertThat(cold.states().get(SESSION)).isEqualTo(SessionFold.fold(SESSION, log));

        engine();
        model.replyText("answer 5");
        send(new SessionInput.PostUserMessage("question 5"));
        awaitTurnsEnded(5);

        List<EventEnvelope> after = events();
        assertThat(after).extracting(EventEnvelope::seq)
                .as("the new owner continued the seq without a gap or a repeat")
                .containsExactlyElementsOf(LongStream.rangeClosed(1, after.size()).boxed().toList());
        assertThat(new SessionLogLoader(topics.kafka, true).load(0).states().get(SESSION))
                .isEqualTo(SessionFold.fold(SESSION, after));
    }

    private SessionEngine engine() {
        // The team's model server only: no user here has one of their own, so no secret key is needed.
        ModelServers client = new ModelServers(ModelSettings.of(model.baseUrl(), model.modelName()),
                user -> java.util.Optional.empty(), null);
        SessionEngine engine = new SessionEngine(topics.kafka,
                answers -> new ModelCalls(topics.kafka, client, new PromptBuilder(""), Clock.systemUTC(), answers),
                MemoryDocument::empty, Clock.systemUTC(), 10, EVERY, PermissionMode.AUTO, Duration.ofMinutes(30),
                dev.agentbus.orchestrator.deciding.LoopLimits.DEFAULTS);
        engine.start();
        running.add(engine);
        running.add(client);
        return engine;
    }

    private void send(SessionInput input) throws Exception {
        InputEnvelope e = new InputEnvelope(UUID.randomUUID().toString(), SESSION, Instant.now(), null, "usr-ada", input);
        inputs.send(Records.input(e, "test", TraceHeaders.newTrace())).get();
    }

    private void awaitTurnsEnded(int turns) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (System.nanoTime() < deadline) {
            if (events().stream().filter(e -> e.event() instanceof SessionEvent.TurnEnded).count() >= turns) {
                return;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("turn " + turns + " did not end within 60 s; log: " + events());
    }

    private List<EventEnvelope> events() {
        List<EventEnvelope> out = new ArrayList<>();
        readAll(Topics.SESSION_EVENTS.name(), r -> out.add(EventCodec.decodeEvent(r.value())));
        return out;
    }

    /** seq → offset of the session's events. */
    private Map<Long, Long> offsets() {
        Map<Long, Long> out = new HashMap<>();
        readAll(Topics.SESSION_EVENTS.name(), r -> out.put(EventCodec.decodeEvent(r.value()).seq(), r.offset()));
        return out;
    }

    private Map<String, ConsumerRecord<String, byte[]>> snapshots() {
        Map<String, ConsumerRecord<String, byte[]>> latest = new HashMap<>();
        readAll(Topics.SESSION_SNAPSHOTS.name(), r -> latest.put(r.key(), r));
        return latest;
    }

    private void readAll(String topic, java.util.function.Consumer<ConsumerRecord<String, byte[]>> handler) {
        TopicPartition tp = new TopicPartition(topic, 0);
        try (KafkaConsumer<String, byte[]> c = new KafkaConsumer<>(topics.kafka.consumer(null, "test-reader"))) {
            c.assign(List.of(tp));
            c.seekToBeginning(List.of(tp));
            long end = c.endOffsets(List.of(tp)).get(tp);
            while (c.position(tp) < end) {
                c.poll(Duration.ofMillis(100)).forEach(handler);
            }
        }
    }
}
