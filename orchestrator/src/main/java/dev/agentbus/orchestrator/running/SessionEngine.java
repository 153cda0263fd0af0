package dev.agentbus.orchestrator.running;

import dev.agentbus.eventbus.DeadLetters;
import dev.agentbus.eventbus.KafkaSettings;
import dev.agentbus.eventbus.Records;
import dev.agentbus.eventbus.ServiceLoop;
import dev.agentbus.eventbus.Transactions;
import dev.agentbus.eventbus.TraceHeaders;
import dev.agentbus.events.codec.EventCodec;
import dev.agentbus.events.codec.MalformedRecordException;
import dev.agentbus.events.input.InputEnvelope;
import dev.agentbus.events.session.EventEnvelope;
import dev.agentbus.events.session.SessionEvent;
import dev.agentbus.events.state.SessionState;
import dev.agentbus.events.topics.Topics;
import dev.agentbus.orchestrator.deciding.Decision;
import dev.agentbus.orchestrator.deciding.DecisionContext;
import dev.agentbus.orchestrator.deciding.Effect;
import dev.agentbus.orchestrator.deciding.SessionDecider;
import io.opentelemetry.api.trace.SpanContext;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The orchestrator's consume-decide-produce loop, the only writer of {@code agentbus.session-events} (invariant 1).
 *
 * <p>For each batch of inputs it opens one Kafka transaction, asks the {@link SessionDecider} what each input
 * means, appends the resulting events with the next {@code seq}, and commits the consumed input offsets in the same
 * transaction. Either all of it becomes visible or none of it does, so a crash can neither lose an input nor
 * record it twice. Effects (model calls) start only after the commit.
 *
 * <p>When it is given a partition it rebuilds that partition's states ({@link SessionLogLoader}: the latest
 * snapshots plus the events after them), processes the input backlog, and then restarts any model call the log shows
 * as started but unanswered (the previous owner died mid-call). After each commit, {@link SnapshotWriter} writes
 * the snapshots that have become due.
 */
public final class SessionEngine implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(SessionEngine.class);
    private static final String GROUP = "agentbus-orchestrator";

    private final KafkaSettings kafka;
    private final SessionDecider decider = new SessionDecider();
    private final ModelCalls modelCalls;
    private final MemoryLookup memory;
    private final Clock clock;
    private final int maxIterations;
    private final SessionLogLoader loader;
    private final SnapshotWriter snapshots;
    private final ServiceLoop loop;
    private final Map<Integer, Map<String, SessionState>> states = new ConcurrentHashMap<>();
    /** Input offsets a newly assigned partition must reach before unanswered model calls are restarted. */
    private final Map<Integer, Long> recovering = new HashMap<>();

    SessionEngine(KafkaSettings kafka, ModelCalls modelCalls, MemoryLookup memory, Clock clock, int maxIterations,
                  int snapshotEvery) {
        this.kafka = kafka;
        this.modelCalls = modelCalls;
        this.memory = memory;
        this.clock = clock;
        this.maxIterations = maxIterations;
        this.snapshots = new SnapshotWriter(snapshotEvery, clock);
        this.loader = new SessionLogLoader(kafka, snapshots.enabled());
        this.loop = new ServiceLoop("orchestrator-engine", this::run);
    }

    void start() {
        loop.start();
    }

    private void run(ServiceLoop loop) {
        try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(
                SnapshotWriter.producerSettings(kafka, "orchestrator"));
             KafkaConsumer<String, byte[]> c = new KafkaConsumer<>(kafka.consumer(GROUP, "orchestrator"))) {
            // Fences any earlier producer with our transactional id and aborts what it left open.
            producer.initTransactions();
            loop.wakeOnClose(c);
            states.clear();
            recovering.clear();
            snapshots.forgetAll();
            c.subscribe(List.of(Topics.SESSION_INPUTS.name()), new Rebalance(c));
            while (loop.running()) {
                ConsumerRecords<String, byte[]> records = c.poll(Duration.ofMillis(250));
                if (!records.isEmpty()) {
                    processBatch(producer, c, records);
                }
                resumeUnansweredModelCalls(c);
            }
        }
    }

    /**
     * One transaction for the whole batch. If it fails, in-memory state runs ahead of the log: the exception ends
     * this run of the loop, and the next run folds state afresh from the log and starts from the committed offsets.
     */
    private void processBatch(KafkaProducer<String, byte[]> producer, KafkaConsumer<String, byte[]> c,
                              ConsumerRecords<String, byte[]> records) {
        List<Runnable> afterCommit = new ArrayList<>();
        List<SnapshotWriter.Sent> sent = new ArrayList<>();
        Transactions.commit(producer, c, offsets -> {
            for (ConsumerRecord<String, byte[]> r : records) {
                offsets.put(new TopicPartition(r.topic(), r.partition()), new OffsetAndMetadata(r.offset() + 1));
                handle(producer, r, afterCommit, sent);
            }
        });
        afterCommit.forEach(Runnable::run);
        snapshots.afterCommit(producer, sent, states);
    }

    private void handle(KafkaProducer<String, byte[]> producer, ConsumerRecord<String, byte[]> r,
                        List<Runnable> afterCommit, List<SnapshotWriter.Sent> sent) {
        InputEnvelope input;
        try {
            input = EventCodec.decodeInput(r.value());
            if (r.key() == null || !r.key().equals(input.sessionId())) {
                throw new MalformedRecordException("record key " + r.key() + " is not the session id "
                        + input.sessionId());
            }
        } catch (MalformedRecordException e) {
            DeadLetters.send(producer, r, e.getMessage(), "orchestrator");
            return;
        }
        Map<String, SessionState> partition = partitionStates(r.partition());
        SessionState state = partition.getOrDefault(input.sessionId(), SessionState.initial(input.sessionId()));
        String userId = state.userId() != null ? state.userId() : input.userId();
        if (userId == null) {
            DeadLetters.send(producer, r, "input has no userId and its session has none", "orchestrator");
            return;
        }
        Instant now = clock.instant();
        Decision decision;
        List<EventEnvelope> envelopes = new ArrayList<>();
        List<ProducerRecord<String, byte[]>> out = new ArrayList<>();
        SpanContext trace = TraceHeaders.continueFrom(r.headers());
        try {
            decision = decider.decide(state, input,
                    new DecisionContext(now, maxIterations, memory.forUser(userId), () -> UUID.randomUUID().toString()));
            long seq = state.lastSeq();
            for (SessionEvent event : decision.events()) {
                EventEnvelope envelope = new EventEnvelope(UUID.randomUUID().toString(), input.sessionId(), ++seq,
                        now, input.id(), userId, event);
                envelopes.add(envelope);
                out.add(Records.event(envelope, "orchestrator", trace));
            }
        } catch (RuntimeException e) {
            // A bug or an input the decider cannot handle must not stop the partition: park it with the reason.
            LOG.error("input {} of session {} could not be decided", input.id(), input.sessionId(), e);
            DeadLetters.send(producer, r, "could not be decided: " + e, "orchestrator");
            return;
        }
        if (decision.ignoredBecause() != null) {
            LOG.debug("input {} of session {} ignored: {}", input.id(), input.sessionId(), decision.ignoredBecause());
            return;
        }
        for (int i = 0; i < out.size(); i++) {
            // The snapshot writer learns each event's offset from its send, once the transaction has committed.
            sent.add(new SnapshotWriter.Sent(input.sessionId(), envelopes.get(i).seq(), producer.send(out.get(i))));
        }
        SessionState after = decision.state();
        partition.put(input.sessionId(), after);
        for (Effect effect : decision.effects()) {
            switch (effect) {
                case Effect.CallModel call -> afterCommit.add(() -> modelCalls.start(call.requestId(), after, trace));
            }
        }
    }

    /** After a takeover, once the backlog is processed, restart model calls that the log shows as unanswered. */
    private void resumeUnansweredModelCalls(KafkaConsumer<String, byte[]> c) {
        if (recovering.isEmpty()) {
            return;
        }
        var it = recovering.entrySet().iterator();
        while (it.hasNext()) {
            var e = it.next();
            TopicPartition tp = new TopicPartition(Topics.SESSION_INPUTS.name(), e.getKey());
            if (c.position(tp) < e.getValue()) {
                continue;
            }
            it.remove();
            for (SessionState s : partitionStates(e.getKey()).values()) {
                String pending = s.turn() == null ? null : s.turn().pendingRequestId();
                if (pending != null && !modelCalls.isInFlight(pending)) {
                    LOG.info("session {}: model call {} was started but never answered; calling again",
                            s.sessionId(), pending);
                    modelCalls.start(pending, s, TraceHeaders.newTrace());
                }
            }
        }
    }

    private Map<String, SessionState> partitionStates(int partition) {
        return states.computeIfAbsent(partition, p -> new ConcurrentHashMap<>());
    }

    private final class Rebalance implements ConsumerRebalanceListener {
        private final KafkaConsumer<String, byte[]> c;

        Rebalance(KafkaConsumer<String, byte[]> c) {
            this.c = c;
        }

        @Override
        public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
            partitions.forEach(tp -> {
                states.remove(tp.partition());
                recovering.remove(tp.partition());
                snapshots.forget(tp.partition());
            });
        }

        @Override
        public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
            Map<TopicPartition, Long> ends = c.endOffsets(partitions);
            for (SessionLogLoader.LoadedPartition loaded : loader.loadAll(
                    partitions.stream().map(TopicPartition::partition).toList())) {
                states.put(loaded.partition(), new ConcurrentHashMap<>(loaded.states()));
                snapshots.adopt(loaded.coverage());
            }
            for (TopicPartition tp : partitions) {
                recovering.put(tp.partition(), ends.get(tp));
            }
        }
    }

    @Override
    public void close() {
        loop.close();
        modelCalls.close();
    }
}
