package dev.agentbus.orchestrator.running;

import dev.agentbus.eventbus.KafkaSettings;
import dev.agentbus.eventbus.Records;
import dev.agentbus.eventbus.TraceHeaders;
import dev.agentbus.telemetry.logging.LogContext;
import dev.agentbus.telemetry.metrics.AgentbusMetrics;
import dev.agentbus.telemetry.tracing.Traced;
import dev.agentbus.telemetry.tracing.Tracing;
import io.opentelemetry.api.trace.SpanKind;
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
import dev.agentbus.events.models.ModelChoice;
import dev.agentbus.events.session.EventEnvelope;
import dev.agentbus.events.session.SessionEvent;
import dev.agentbus.events.state.SessionState;
import dev.agentbus.events.topics.Topics;
import dev.agentbus.orchestrator.deciding.Decision;
import dev.agentbus.events.session.PermissionMode;
import dev.agentbus.orchestrator.deciding.DecisionContext;
import dev.agentbus.orchestrator.deciding.ContextLimits;
import dev.agentbus.orchestrator.deciding.LoopLimits;
import dev.agentbus.orchestrator.deciding.Effect;
import dev.agentbus.orchestrator.deciding.Outgoing;
import dev.agentbus.orchestrator.deciding.SessionDecider;
import dev.agentbus.orchestrator.deciding.delegating.SubAgentLimits;
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
import java.util.Queue;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Function;

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
 *
 * <p>A model call's answer comes back from {@link ModelCalls} in memory: it wakes the loop and is decided like any
 * input, in the next transaction. An answer for a session whose partition this engine no longer owns is dropped (the
 * new owner calls the model again). Such a transaction also commits the consumer's positions, so a zombie engine that
 * lost its partitions in a rebalance it has not seen yet is fenced by the group coordinator and writes nothing.
 */
final class SessionEngine implements Handler<InputEnvelope>, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(SessionEngine.class);
    private static final String GROUP = "agentbus-orchestrator";

    private final SessionDecider decider = new SessionDecider();
    private final ModelCalls modelCalls;
    private final MemoryLookup memory;
    private final Clock clock;
    private final int maxIterations;
    private final PermissionMode defaultMode;
    private final Duration approvalTimeout;
    private final LoopLimits loopLimits;
    private final ContextLimits contextLimits;
    private final Function<String, ModelChoice> modelDefaults;
    private final SubAgentLimits subAgents;
    private final SessionLogLoader loader;
    private final SnapshotWriter snapshots;
    private final TransactionalProcessor<InputEnvelope> processor;
    private final Map<Integer, Map<String, SessionState>> states = new ConcurrentHashMap<>();
    /** Input offsets a newly assigned partition must reach before unanswered model calls are restarted. */
    private final Map<Integer, Long> recovering = new HashMap<>();
    /** Model answers not yet recorded, handed over by the calls' threads. */
    private final Queue<Answer> answers = new ConcurrentLinkedQueue<>();
    /** The request ids of {@link #answers}: answered, so not to be called again while they wait to be recorded. */
    private final Set<String> answeredRequests = ConcurrentHashMap.newKeySet();

    private record Answer(InputEnvelope input, SpanContext trace) {
    }

    /** @param modelCalls makes the model calls, given where their answers go */
    SessionEngine(KafkaSettings kafka, Function<ModelCalls.Answers, ModelCalls> modelCalls, MemoryLookup memory,
                  Clock clock, int maxIterations, int snapshotEvery, PermissionMode defaultMode,
                  Duration approvalTimeout, LoopLimits loopLimits) {
        this(kafka, modelCalls, memory, clock, maxIterations, snapshotEvery, defaultMode, approvalTimeout, loopLimits,
                ContextLimits.DEFAULTS);
    }

    SessionEngine(KafkaSettings kafka, Function<ModelCalls.Answers, ModelCalls> modelCalls, MemoryLookup memory,
                  Clock clock, int maxIterations, int snapshotEvery, PermissionMode defaultMode,
                  Duration approvalTimeout, LoopLimits loopLimits, ContextLimits contextLimits) {
        this(kafka, modelCalls, memory, clock, maxIterations, snapshotEvery, defaultMode, approvalTimeout, loopLimits,
                contextLimits, userId -> ModelChoice.NONE);
    }

    SessionEngine(KafkaSettings kafka, Function<ModelCalls.Answers, ModelCalls> modelCalls, MemoryLookup memory,
                  Clock clock, int maxIterations, int snapshotEvery, PermissionMode defaultMode,
                  Duration approvalTimeout, LoopLimits loopLimits, ContextLimits contextLimits,
                  Function<String, ModelChoice> modelDefaults) {
        this(kafka, modelCalls, memory, clock, maxIterations, snapshotEvery, defaultMode, approvalTimeout, loopLimits,
                contextLimits, modelDefaults, SubAgentLimits.DEFAULTS);
    }

    /**
     * @param modelDefaults the model and sampling of a user's calls where the session chooses none: user's over team's
     * @param subAgents     how far a session may delegate ({@code agentbus.sub-agents.*})
     */
    SessionEngine(KafkaSettings kafka, Function<ModelCalls.Answers, ModelCalls> modelCalls, MemoryLookup memory,
                  Clock clock, int maxIterations, int snapshotEvery, PermissionMode defaultMode,
                  Duration approvalTimeout, LoopLimits loopLimits, ContextLimits contextLimits,
                  Function<String, ModelChoice> modelDefaults, SubAgentLimits subAgents) {
        this.subAgents = subAgents;
        this.modelDefaults = modelDefaults;
        this.contextLimits = contextLimits;
        this.loopLimits = loopLimits;
        this.modelCalls = modelCalls.apply(this::answered);
        this.defaultMode = defaultMode;
        this.approvalTimeout = approvalTimeout;
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

    /** On a model call's thread: the answer waits for the loop, which is woken to record it now. */
    private void answered(InputEnvelope outcome, SpanContext trace) {
        answeredRequests.add(outcome.causationId());
        answers.add(new Answer(outcome, trace));
        processor.wake();
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
        answers.clear();
        answeredRequests.clear();
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
            // A step: one span, child of the input's traceparent; the events it sends carry the step's context.
            try (Traced step = Tracing.consume(Steps.spanName(d.value()), d.record().headers())
                    .attribute("agentbus.session_id", d.value().sessionId());
                 LogContext log = LogContext.of(d.value().sessionId(), step.context())) {
                var timing = AgentbusMetrics.stepStarted();
                handle(d.record().partition(), d.value(), step.context(), out, sent,
                        reason -> out.deadLetter(d.record(), reason));
                AgentbusMetrics.stepDone(timing);
            }
        }
        // The snapshot writer learns each event's offset from its send, once the transaction has committed.
        out.afterCommit(() -> snapshots.afterCommit(loop.producer(), sent, states));
    }

    /**
     * @param park what to do with an input that cannot be decided: a consumed record is dead-lettered with the reason
     */
    private void handle(int partitionNumber, InputEnvelope input, SpanContext trace, Outbox out,
                        List<SnapshotWriter.Sent> sent, java.util.function.Consumer<String> park) {
        Map<String, SessionState> partition = partitionStates(partitionNumber);
        SessionState state = partition.getOrDefault(input.sessionId(), SessionState.initial(input.sessionId()));
        String userId = state.userId() != null ? state.userId() : input.userId();
        if (userId == null) {
            park.accept("input has no userId and its session has none");
            return;
        }
        Instant now = clock.instant();
        Decision decision;
        List<EventEnvelope> envelopes = new ArrayList<>();
        List<ProducerRecord<String, byte[]>> records = new ArrayList<>();
        try {
            decision = decider.decide(state, input,
                    new DecisionContext(now, maxIterations, memory.forUser(userId), () -> UUID.randomUUID().toString(),
                            defaultMode, approvalTimeout, loopLimits, contextLimits, modelDefaults.apply(userId),
                            subAgents, memory.insightsFor(userId), memory.injection()));
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
            park.accept("could not be decided: " + e);
            return;
        }
        if (decision.ignoredBecause() != null) {
            LOG.debug("input {} of session {} ignored: {}", input.id(), input.sessionId(), decision.ignoredBecause());
            return;
        }
        for (int i = 0; i < records.size(); i++) {
            sent.add(new SnapshotWriter.Sent(input.sessionId(), envelopes.get(i).seq(), out.send(records.get(i))));
        }
        // Inputs for other sessions (a sub-agent's start, its result for its parent, a cancel for a child) go out in
        // this transaction, with the events that caused them: both are recorded, or neither, so a replay or a crash
        // never sends one twice or loses one. Each is decided by the orchestrator that owns its own session.
        for (Outgoing o : decision.outgoing()) {
            out.send(Records.input(new InputEnvelope(UUID.randomUUID().toString(), o.sessionId(), now, input.id(),
                    userId, o.input()), "orchestrator", trace));
        }
        SessionState after = decision.state();
        partition.put(input.sessionId(), after);
        for (Effect effect : decision.effects()) {
            switch (effect) {
                // After the commit, like every effect: whoever sees the model asked can find model_call.started in the
                // log. (Starting it while the commit runs saved a few milliseconds a step, but a reader that saw the
                // request could then not yet find the event, which the fault suite relies on.)
                case Effect.CallModel call -> out.afterCommit(() -> modelCalls.start(call.requestId(), after, trace));
                // After the commit too: the cancel is recorded first, so the failure the stopped call reports is
                // already one the decider ignores.
                case Effect.StopModelCall stop -> out.afterCommit(() -> modelCalls.stop(stop.requestId()));
                // After the commit: the decision to compact is recorded before the model is asked for the summary.
                case Effect.Summarise summarise ->
                        out.afterCommit(() -> modelCalls.summarise(summarise.requestId(), after, trace));
            }
        }
    }

    /** Every iteration, after the batch: a partition taken over whose backlog is now processed resumes its calls. */
    @Override
    public void onIteration(Outbox out, LoopContext loop) {
        recordAnswers(out, loop);
        resumeUnansweredModelCalls(out, loop);
    }

    /** The model answers that came back since the last iteration, decided in this batch's transaction. */
    private void recordAnswers(Outbox out, LoopContext loop) {
        if (answers.isEmpty()) {
            return;
        }
        List<SnapshotWriter.Sent> sent = new ArrayList<>();
        List<String> recorded = new ArrayList<>();
        for (Answer a = answers.poll(); a != null; a = answers.poll()) {
            InputEnvelope input = a.input();
            recorded.add(input.causationId());
            Integer partition = ownerPartition(input.sessionId());
            if (partition == null) {
                // Taken away meanwhile: the new owner finds the call unanswered in the log and makes it again.
                LOG.debug("answer {} of session {} dropped: its partition is no longer here", input.causationId(),
                        input.sessionId());
                continue;
            }
            try (Traced step = Tracing.child(Steps.spanName(input), SpanKind.INTERNAL, a.trace())
                    .attribute("agentbus.session_id", input.sessionId());
                 LogContext log = LogContext.of(input.sessionId(), step.context())) {
                var timing = AgentbusMetrics.stepStarted();
                handle(partition, input, step.context(), out, sent, reason -> LOG.error(
                        "model answer {} of session {} could not be recorded: {}", input.causationId(),
                        input.sessionId(), reason));
                AgentbusMetrics.stepDone(timing);
            }
        }
        out.afterCommit(() -> {
            recorded.forEach(answeredRequests::remove);
            snapshots.afterCommit(loop.producer(), sent, states);
        });
    }

    /** The partition of this engine that holds the session, or null when none does. */
    private Integer ownerPartition(String sessionId) {
        for (Map.Entry<Integer, Map<String, SessionState>> p : states.entrySet()) {
            if (p.getValue().containsKey(sessionId)) {
                return p.getKey();
            }
        }
        return null;
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
                    if (pending != null && !modelCalls.isInFlight(pending)
                            && !answeredRequests.contains(pending)) {
                        LOG.info("session {}: model call {} was started but never answered; calling again",
                                s.sessionId(), pending);
                        modelCalls.start(pending, s, TraceHeaders.newTrace());
                    }
                    // A summary asked for and not recorded is asked for again, like a model call (no side effects).
                    String summary = s.context().awaitsSummary() ? s.context().compacting().requestId() : null;
                    if (summary != null && !modelCalls.isInFlight(summary) && !answeredRequests.contains(summary)) {
                        LOG.info("session {}: summary {} was asked for but never recorded; asking again",
                                s.sessionId(), summary);
                        modelCalls.summarise(summary, s, TraceHeaders.newTrace());
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
