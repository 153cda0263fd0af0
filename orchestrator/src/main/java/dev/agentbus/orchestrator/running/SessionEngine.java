package dev.agentbus.orchestrator.running;

import dev.agentbus.eventbus.KafkaSettings;
import dev.agentbus.eventbus.Records;
import dev.agentbus.eventbus.TraceHeaders;
import dev.agentbus.eventbus.processing.Clients;
import dev.agentbus.eventbus.processing.Decoded;
import dev.agentbus.eventbus.processing.Handler;
import dev.agentbus.eventbus.processing.LoopContext;
import dev.agentbus.eventbus.processing.Outbox;
import dev.agentbus.eventbus.processing.ProcessorSettings;
import dev.agentbus.eventbus.processing.TransactionalProcessor;
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
import org.apache.kafka.clients.consumer.ConsumerRecord;
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
 * <p>It is the {@link Handler} of a {@link TransactionalProcessor} on {@code agentbus.session-inputs}: for each batch
 * of inputs it asks the {@link SessionDecider} what each input means and appends the resulting events with the next
 * {@code seq}; the processor commits them with the consumed input offsets in one Kafka transaction. Either all of it
 * becomes visible or none of it does, so a crash can neither lose an input nor record it twice. Effects (model calls)
 * start only after the commit. An input that cannot be read, has no user, or that the decider fails on is
 * dead-lettered with the reason, so one bad input never stops a partition.
 *
 * <p>When it is given a partition it rebuilds that partition's states ({@link SessionLogLoader}: the latest
 * snapshots plus the events after them), processes the input backlog, and then restarts any model call the log shows
 * as started but unanswered (the previous owner died mid-call). After each commit, {@link SnapshotWriter} writes
 * the snapshots that have become due.
 */
final class SessionEngine implements Handler<InputEnvelope>, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(SessionEngine.class);
    private static final String GROUP = "agentbus-orchestrator";

    private final SessionDecider decider = new SessionDecider();
    private final ModelCalls modelCalls;
    private final MemoryLookup memory;
    private final Clock clock;
    private final int maxIterations;
    private final SessionLogLoader loader;
    private final SnapshotWriter snapshots;
    private final TransactionalProcessor<InputEnvelope> processor;
    private final Map<Integer, Map<String, SessionState>> states = new ConcurrentHashMap<>();
    /** Input offsets a newly assigned partition must reach before unanswered model calls are restarted. */
    private final Map<Integer, Long> recovering = new HashMap<>();

    SessionEngine(KafkaSettings kafka, ModelCalls modelCalls, MemoryLookup memory, Clock clock, int maxIterations,
                  int snapshotEvery) {
        this.modelCalls = modelCalls;
        this.memory = memory;
        this.clock = clock;
        this.maxIterations = maxIterations;
        this.snapshots = new SnapshotWriter(snapshotEvery, clock);
        this.loader = new SessionLogLoader(kafka, snapshots.enabled());
        this.processor = new TransactionalProcessor<>(
                new ProcessorSettings("orchestrator-engine", "orchestrator", Topics.SESSION_INPUTS.name(),
                        Duration.ofMillis(250), ProcessorSettings.Unreadable.DEAD_LETTER),
                Clients.kafka(SnapshotWriter.producerSettings(kafka, "orchestrator"),
                        kafka.consumer(GROUP, "orchestrator")),
                SessionEngine::decode, this);
    }

    void start() {
        processor.start();
    }

    /** An input envelope keyed by its own session (invariant 7); anything else cannot be placed and is parked. */
    private static InputEnvelope decode(ConsumerRecord<String, byte[]> r) {
        InputEnvelope input = EventCodec.decodeInput(r.value());
        if (r.key() == null || !r.key().equals(input.sessionId())) {
            throw new MalformedRecordException("record key " + r.key() + " is not the session id "
                    + input.sessionId());
        }
        return input;
    }

    /** A new run of the loop: states are folded afresh from the log as partitions are assigned. */
    @Override
    public void onStart() {
        states.clear();
        recovering.clear();
        snapshots.forgetAll();
    }

    /**
     * One batch, one transaction. If it fails, in-memory state runs ahead of the log: the exception ends this run of
     * the loop, and the next run folds state afresh from the log and starts from the committed offsets.
     */
    @Override
    public void handle(List<Decoded<InputEnvelope>> records, Outbox out, LoopContext loop) {
        List<SnapshotWriter.Sent> sent = new ArrayList<>();
        for (Decoded<InputEnvelope> d : records) {
            handle(d.record(), d.value(), out, sent);
        }
        // The snapshot writer learns each event's offset from its send, once the transaction has committed.
        out.afterCommit(() -> snapshots.afterCommit(loop.producer(), sent, states));
    }

    private void handle(ConsumerRecord<String, byte[]> r, InputEnvelope input, Outbox out,
                        List<SnapshotWriter.Sent> sent) {
        Map<String, SessionState> partition = partitionStates(r.partition());
        SessionState state = partition.getOrDefault(input.sessionId(), SessionState.initial(input.sessionId()));
        String userId = state.userId() != null ? state.userId() : input.userId();
        if (userId == null) {
            out.deadLetter(r, "input has no userId and its session has none");
            return;
        }
        Instant now = clock.instant();
        Decision decision;
        List<EventEnvelope> envelopes = new ArrayList<>();
        List<ProducerRecord<String, byte[]>> records = new ArrayList<>();
        SpanContext trace = TraceHeaders.continueFrom(r.headers());
        try {
            decision = decider.decide(state, input,
                    new DecisionContext(now, maxIterations, memory.forUser(userId), () -> UUID.randomUUID().toString()));
            long seq = state.lastSeq();
            for (SessionEvent event : decision.events()) {
                EventEnvelope envelope = new EventEnvelope(UUID.randomUUID().toString(), input.sessionId(), ++seq,
                        now, input.id(), userId, event);
                envelopes.add(envelope);
                records.add(Records.event(envelope, "orchestrator", trace));
            }
        } catch (RuntimeException e) {
            // A bug or an input the decider cannot handle must not stop the partition: park it with the reason.
            LOG.error("input {} of session {} could not be decided", input.id(), input.sessionId(), e);
            out.deadLetter(r, "could not be decided: " + e);
            return;
        }
        if (decision.ignoredBecause() != null) {
            LOG.debug("input {} of session {} ignored: {}", input.id(), input.sessionId(), decision.ignoredBecause());
            return;
        }
        for (int i = 0; i < records.size(); i++) {
            sent.add(new SnapshotWriter.Sent(input.sessionId(), envelopes.get(i).seq(), out.send(records.get(i))));
        }
        SessionState after = decision.state();
        partition.put(input.sessionId(), after);
        for (Effect effect : decision.effects()) {
            switch (effect) {
                case Effect.CallModel call -> out.afterCommit(() -> modelCalls.start(call.requestId(), after, trace));
            }
        }
    }

    /** Every iteration, after the batch: a partition taken over whose backlog is now processed resumes its calls. */
    @Override
    public void onIteration(Outbox out, LoopContext loop) {
        resumeUnansweredModelCalls(out, loop);
    }

    /**
     * After a takeover, once the backlog is processed, restart model calls that the log shows as unanswered. After
     * the commit, like every effect: the batch just handled may itself have started the call.
     */
    private void resumeUnansweredModelCalls(Outbox out, LoopContext loop) {
        if (recovering.isEmpty()) {
            return;
        }
        var it = recovering.entrySet().iterator();
        while (it.hasNext()) {
            var e = it.next();
            TopicPartition tp = new TopicPartition(Topics.SESSION_INPUTS.name(), e.getKey());
            if (loop.position(tp) < e.getValue()) {
                continue;
            }
            it.remove();
            List<SessionState> taken = List.copyOf(partitionStates(e.getKey()).values());
            out.afterCommit(() -> {
                for (SessionState s : taken) {
                    String pending = s.turn() == null ? null : s.turn().pendingRequestId();
                    if (pending != null && !modelCalls.isInFlight(pending)) {
                        LOG.info("session {}: model call {} was started but never answered; calling again",
                                s.sessionId(), pending);
                        modelCalls.start(pending, s, TraceHeaders.newTrace());
                    }
                }
            });
        }
    }

    private Map<String, SessionState> partitionStates(int partition) {
        return states.computeIfAbsent(partition, p -> new ConcurrentHashMap<>());
    }

    @Override
    public void onRevoked(Collection<TopicPartition> partitions, LoopContext loop) {
        partitions.forEach(tp -> {
            states.remove(tp.partition());
            recovering.remove(tp.partition());
            snapshots.forget(tp.partition());
        });
    }

    @Override
    public void onAssigned(Collection<TopicPartition> partitions, LoopContext loop) {
        Map<TopicPartition, Long> ends = loop.endOffsets(partitions);
        for (SessionLogLoader.LoadedPartition loaded : loader.loadAll(
                partitions.stream().map(TopicPartition::partition).toList())) {
            states.put(loaded.partition(), new ConcurrentHashMap<>(loaded.states()));
            snapshots.adopt(loaded.coverage());
        }
        for (TopicPartition tp : partitions) {
            recovering.put(tp.partition(), ends.get(tp));
        }
    }

    @Override
    public void close() {
        processor.close();
        modelCalls.close();
    }
}
