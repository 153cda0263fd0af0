package dev.agentbus.sandbox.runningtools;

import dev.agentbus.eventbus.CompactedTopicView;
import dev.agentbus.eventbus.KafkaSettings;
import dev.agentbus.eventbus.Records;
import dev.agentbus.eventbus.ServiceLoop;
import dev.agentbus.eventbus.TraceHeaders;
import dev.agentbus.eventbus.Transactions;
import dev.agentbus.events.Json;
import dev.agentbus.events.codec.EventCodec;
import dev.agentbus.events.codec.MalformedRecordException;
import dev.agentbus.events.input.InputEnvelope;
import dev.agentbus.events.input.SessionInput;
import dev.agentbus.events.ledger.ToolLedgerEntry;
import dev.agentbus.events.session.EventEnvelope;
import dev.agentbus.events.session.SessionEvent.SessionForked;
import dev.agentbus.events.session.SessionEvent.ToolCallRequested;
import dev.agentbus.events.stream.StreamChunk;
import dev.agentbus.events.topics.Topics;
import dev.agentbus.eventbus.redacting.SecretRedactor;
import dev.agentbus.sandbox.checkpointing.CheckpointException;
import dev.agentbus.sandbox.checkpointing.Checkpoints;
import dev.agentbus.sandbox.tools.ToolExecutor;
import dev.agentbus.sandbox.sandboxing.SandboxSpec;
import dev.agentbus.sandbox.tools.ToolOutcome;
import io.opentelemetry.api.trace.SpanContext;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.stream.Collectors;

/**
 * Runs each requested tool call at most once, and reports its result exactly once (invariant 4), with calls of
 * different sessions running side by side and the calls of one session one after another, in the order asked.
 *
 * <p>All Kafka writes happen on the loop's thread, each in its own transaction:
 * <ol>
 *   <li>for a new request: the ledger entry STARTED, {@code mark_tool_call_started.v1}, and the consumed offset past
 *       the request — then the call is handed to a virtual thread;</li>
 *   <li>when a call finishes: {@code record_tool_result.v1} and the ledger entry FINISHED.</li>
 * </ol>
 * If the worker dies in between, the ledger holds STARTED without FINISHED. Whichever worker is next given that
 * session's partition (this one restarted, or another replica) reads the ledger and reports the call
 * "interrupted, not re-run" instead of running it again.
 *
 * <p>Workspace checkpoints ({@link Checkpoints}): after a call that may have changed files the workspace is
 * committed to the session's shadow repository, and the commit id goes into the result. Two things are handled here
 * rather than by the {@link ToolExecutor}, because they are about the session's history, not about running a tool:
 * the user tool {@code rewind} (restore a checkpoint) and {@code session.forked.v1} (start a fork's workspace from the
 * source's checkpoint, before any later call of the fork runs: same partition, so same order).
 */
public final class ToolRunner implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ToolRunner.class);
    private static final String GROUP = "agentbus-sandbox-worker";
    private static final Duration SHUTDOWN_GRACE = Duration.ofSeconds(5);
    /** Longer than the longest shell command (120 s), shorter than the consumer's max.poll.interval.ms (300 s). */
    private static final Duration REVOKE_WAIT = Duration.ofSeconds(150);

    /** A call that has run (or was given up before it started), waiting for the loop's thread to report it. */
    private record Finished(EventEnvelope cause, ToolCallRequested call, int partition, ToolOutcome outcome,
                            long durationMs, boolean notRun, String checkpoint, SpanContext trace) {
    }

    /** The user tool that restores a checkpoint; run here, not by the ToolExecutor (see the class comment). */
    static final String REWIND = "rewind";

    /** A call handed to a virtual thread and not yet reported. */
    private static final class CallState {
        final int partition;
        volatile boolean started;
        volatile boolean cancelled;

        CallState(int partition) {
            this.partition = partition;
        }
    }

    private final KafkaSettings kafka;
    private final ToolExecutor executor;
    private final Workspaces workspaces;
    private final Checkpoints checkpoints;
    private final Clock clock;
    private final String workerId;
    private final ServiceLoop loop;
    private final KafkaProducer<String, byte[]> liveOutput;
    private final ExecutorService callThreads = Executors.newVirtualThreadPerTaskExecutor();
    private final Semaphore slots;
    /** The last call of each session, so the next one starts after it. */
    private final Map<String, CompletableFuture<Void>> sessionTails = new ConcurrentHashMap<>();
    /** Calls of this worker not yet reported, by ledger key. */
    private final Map<String, CallState> running = new ConcurrentHashMap<>();
    /** The sessions this worker ran calls for, by id: their owner and partition, to free their sandboxes on revoke. */
    private final Map<String, SessionHere> sessionsHere = new ConcurrentHashMap<>();
    private final LinkedBlockingQueue<Finished> finished = new LinkedBlockingQueue<>();
    /** Ledger entries by ledger key (session id / call id); touched only on the loop's thread. */
    private final Map<String, ToolLedgerEntry> ledger = new HashMap<>();
    private final List<ToolLedgerEntry> toInterrupt = new ArrayList<>();

    /** With checkpoints kept beside the workspaces, by the {@code git} on the worker's PATH. */
    public ToolRunner(KafkaSettings kafka, ToolExecutor executor, Workspaces workspaces, Clock clock,
                      int maxConcurrentCalls) {
        this(kafka, executor, workspaces, new Checkpoints(workspaces.root(), "git", clock), clock,
                maxConcurrentCalls);
    }

    public ToolRunner(KafkaSettings kafka, ToolExecutor executor, Workspaces workspaces, Checkpoints checkpoints,
                      Clock clock, int maxConcurrentCalls) {
        this.kafka = kafka;
        this.executor = executor;
        this.workspaces = workspaces;
        this.checkpoints = checkpoints;
        this.clock = clock;
        this.workerId = "sandbox-worker-" + kafka.instanceId();
        this.slots = new Semaphore(Math.max(1, maxConcurrentCalls));
        // Live output is ephemeral and must show while the command runs, so it is not part of any transaction.
        this.liveOutput = new KafkaProducer<>(kafka.producer("sandbox-output"));
        this.loop = new ServiceLoop("sandbox-runner", this::run);
    }

    public void start() {
        loop.start();
    }

    private void run(ServiceLoop loop) {
        try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(kafka.transactionalProducer("sandbox-worker"));
             KafkaConsumer<String, byte[]> c = new KafkaConsumer<>(kafka.consumer(GROUP, "sandbox-worker"))) {
            producer.initTransactions();
            loop.wakeOnClose(c);
            c.subscribe(List.of(Topics.SESSION_EVENTS.name()), new Takeover(producer, c));
            while (loop.running()) {
                ConsumerRecords<String, byte[]> records;
                try {
                    records = c.poll(Duration.ofMillis(50));
                } catch (WakeupException closing) {
                    break; // report what has finished before closing, below
                }
                reportInterrupted(producer, c);
                Map<TopicPartition, OffsetAndMetadata> consumed = new HashMap<>();
                for (ConsumerRecord<String, byte[]> r : records) {
                    consumed.put(new TopicPartition(r.topic(), r.partition()), new OffsetAndMetadata(r.offset() + 1));
                    EventEnvelope envelope = decode(r);
                    if (envelope != null && envelope.event() instanceof SessionForked fork) {
                        // On the loop's thread, before the offset moves past it: a crash during the restore means
                        // it is done again, and no later call of the fork can start before it is done.
                        startFork(envelope, fork);
                    }
                    if (envelope != null && envelope.event() instanceof ToolCallRequested call
                            && runsHere(call.name())
                            && !ledger.containsKey(key(envelope.sessionId(), call.callId()))) {
                        begin(producer, c, r, envelope, call, consumed);
                        consumed.clear();
                    }
                }
                if (!consumed.isEmpty()) {
                    Transactions.commit(producer, c, offsets -> offsets.putAll(consumed));
                }
                reportFinished(producer, c);
            }
            awaitRunningCalls();
            reportFinished(producer, c);
        }
    }

    private static boolean runsHere(String toolName) {
        return ToolExecutor.TOOL_NAMES.contains(toolName) || REWIND.equals(toolName);
    }

    /**
     * A new fork: its workspace becomes the source's files at the fork's checkpoint. The source may belong to
     * another user (the fork's owner is the one who forked it), so its repository is found by the source state's
     * user. A failure is logged and the fork starts with an empty workspace; the fork itself is not undone.
     */
    private void startFork(EventEnvelope envelope, SessionForked fork) {
        if (fork.checkpoint() == null || fork.state() == null) {
            return; // forked before any call changed a file, or imported from elsewhere: the workspace starts empty
        }
        try {
            var workspace = workspaces.forSession(envelope.userId(), envelope.sessionId());
            if (checkpoints.startFork(fork.state().userId(), fork.fromSessionId(), fork.checkpoint(),
                    envelope.userId(), envelope.sessionId(), workspace)) {
                LOG.info("session {}: workspace restored from checkpoint {} of session {}", envelope.sessionId(),
                        fork.checkpoint(), fork.fromSessionId());
            }
        } catch (IOException | CheckpointException e) {
            LOG.error("session {}: could not restore the fork's workspace from checkpoint {} of session {}: {}",
                    envelope.sessionId(), fork.checkpoint(), fork.fromSessionId(), e.getMessage());
        }
    }

    /** STARTED, "started" and the offset past the request in one transaction; then the call runs. */
    private void begin(KafkaProducer<String, byte[]> producer, KafkaConsumer<String, byte[]> c,
                       ConsumerRecord<String, byte[]> r, EventEnvelope envelope, ToolCallRequested call,
                       Map<TopicPartition, OffsetAndMetadata> consumed) {
        SpanContext trace = TraceHeaders.continueFrom(r.headers());
        ToolLedgerEntry started = entry(envelope, call.callId(), r.partition(), ToolLedgerEntry.State.STARTED);
        Transactions.commit(producer, c, offsets -> {
            producer.send(ledgerRecord(started));
            producer.send(input(envelope.sessionId(), envelope.userId(), envelope.id(),
                    new SessionInput.MarkToolCallStarted(call.callId(), workerId), trace));
            offsets.putAll(consumed);
        });
        ledger.put(key(started), started);
        sessionsHere.put(envelope.sessionId(), new SessionHere(envelope.userId(), r.partition()));
        CallState state = new CallState(r.partition());
        running.put(key(started), state);
        CompletableFuture<Void> next = sessionTails.compute(envelope.sessionId(), (session, tail) ->
                (tail == null ? CompletableFuture.<Void>completedFuture(null) : tail)
                        .thenRunAsync(() -> runCall(envelope, call, state, trace), callThreads));
        next.whenComplete((ok, error) -> sessionTails.remove(envelope.sessionId(), next));
    }

    private void runCall(EventEnvelope envelope, ToolCallRequested call, CallState state, SpanContext trace) {
        slots.acquireUninterruptibly();
        try {
            if (state.cancelled) {
                finished.add(new Finished(envelope, call, state.partition, new ToolOutcome(false, null,
                        "not run: this session moved to another sandbox-worker before the call started; "
                                + "ask for it again", null, false), 0, true, null, trace));
                return;
            }
            state.started = true;
            long startedAt = System.nanoTime();
            ToolOutcome outcome;
            try {
                outcome = redacted(execute(envelope, call, trace));
            } catch (Throwable t) {
                // Never let one call break the chain of its session's later calls, or go unreported.
                outcome = new ToolOutcome(false, "", "the tool failed unexpectedly: " + t, null, false);
            }
            long ms = (System.nanoTime() - startedAt) / 1_000_000; // the call's own time, without the checkpoint
            String checkpoint = Checkpoints.mayChangeFiles(call.name()) ? checkpoint(envelope, call) : null;
            finished.add(new Finished(envelope, call, state.partition, outcome, ms, false, checkpoint, trace));
            LOG.info("session {}: {} {} in {} ms", envelope.sessionId(), call.name(), outcome.ok() ? "ok" : "failed", ms);
        } finally {
            slots.release();
        }
    }

    /**
     * The checkpoint after a call, when it changed files (a failed call may have changed some too). A checkpoint
     * that cannot be taken costs the call nothing: it is logged and the result carries none.
     */
    private String checkpoint(EventEnvelope envelope, ToolCallRequested call) {
        try {
            var workspace = workspaces.forSession(envelope.userId(), envelope.sessionId());
            return checkpoints.record(envelope.userId(), envelope.sessionId(), workspace, call.name(), call.callId())
                    .orElse(null);
        } catch (IOException | CheckpointException | RuntimeException e) {
            LOG.warn("session {}: no checkpoint after {} {}: {}", envelope.sessionId(), call.name(), call.callId(),
                    e.getMessage());
            return null;
        }
    }

    /**
     * {@code rewind {"checkpoint": ID}}: only a person may run it (a model that could rewind could erase what a
     * person wants to inspect). The rewind is checkpointed after it in {@link #runCall}, like any call that changes
     * files, so the result carries the checkpoint to rewind to for undoing it.
     */
    private ToolOutcome rewind(EventEnvelope envelope, ToolCallRequested call) {
        if (!call.byUser()) {
            return ToolOutcome.failure("rewind can only be run by a person (agentbus rewind), not by the model");
        }
        try {
            var args = Json.mapper().readTree(call.arguments());
            String checkpoint = args == null ? null : args.path("checkpoint").asText(null);
            if (checkpoint == null || checkpoint.isBlank()) {
                return ToolOutcome.failure("rewind needs {\"checkpoint\": ID}, an id from a tool call's result");
            }
            var workspace = workspaces.forSession(envelope.userId(), envelope.sessionId());
            Checkpoints.Rewound r = checkpoints.rewind(envelope.userId(), envelope.sessionId(), workspace,
                    checkpoint.strip());
            return ToolOutcome.success("restored the workspace to checkpoint " + r.restored() + " (" + r.files()
                    + (r.files() == 1 ? " file)" : " files)"));
        } catch (IOException | CheckpointException e) {
            return ToolOutcome.failure("rewind failed: " + e.getMessage());
        }
    }

    private ToolOutcome execute(EventEnvelope envelope, ToolCallRequested call, SpanContext trace) {
        if (REWIND.equals(call.name())) {
            return rewind(envelope, call);
        }
        try {
            var workspace = workspaces.forSession(envelope.userId(), envelope.sessionId());
            var args = Json.mapper().readTree(call.arguments());
            var spec = new SandboxSpec(envelope.userId(), envelope.sessionId(), workspace, call.shell());
            return executor.execute(call.name(), args, spec, chunk -> liveOutput.send(Records.streamChunk(
                    new StreamChunk(envelope.sessionId(), StreamChunk.Kind.OUTPUT, call.callId(),
                            SecretRedactor.redact(chunk), clock.instant()), trace)));
        } catch (IOException e) {
            return new ToolOutcome(false, "", "cannot prepare the workspace: " + e.getMessage(), null, false);
        } catch (RuntimeException e) {
            LOG.error("tool {} failed unexpectedly", call.name(), e);
            return new ToolOutcome(false, "", "the tool failed unexpectedly: " + e, null, false);
        }
    }

    /** Secrets never enter the log: the output, error and diff are masked before they are reported. */
    private static ToolOutcome redacted(ToolOutcome o) {
        return new ToolOutcome(o.ok(), SecretRedactor.redact(o.output()), SecretRedactor.redact(o.error()),
                SecretRedactor.redact(o.diff()), o.truncated(), o.shell(), o.refusal());
    }

    /**
     * The result and FINISHED together, once per call: "results exactly once". An item leaves the queue only after
     * its transaction committed; if the commit fails, the loop starts over and reports it then.
     */
    private void reportFinished(KafkaProducer<String, byte[]> producer, KafkaConsumer<String, byte[]> c) {
        Finished done;
        while ((done = finished.peek()) != null) {
            ToolOutcome o = done.outcome();
            var result = new SessionInput.RecordToolResult(done.call().callId(), o.ok(), o.output(), o.error(),
                    o.diff(), o.truncated(), done.durationMs(), done.notRun(), o.shell(), done.checkpoint(),
                    o.refusal());
            ToolLedgerEntry end = entry(done.cause(), done.call().callId(), done.partition(),
                    ToolLedgerEntry.State.FINISHED);
            Finished report = done;
            Transactions.commit(producer, c, offsets -> {
                producer.send(input(report.cause().sessionId(), report.cause().userId(), report.cause().id(), result,
                        report.trace()));
                producer.send(ledgerRecord(end));
            });
            finished.remove();
            ledger.put(key(end), end);
            running.remove(key(end));
        }
    }

    /** Calls of newly assigned partitions that a dead worker started and never finished. */
    private void reportInterrupted(KafkaProducer<String, byte[]> producer, KafkaConsumer<String, byte[]> c) {
        for (ToolLedgerEntry started : toInterrupt) {
            LOG.warn("tool call {} of session {} was started by {} and never finished; reporting it interrupted, "
                    + "not running it again", started.callId(), started.sessionId(), started.worker());
            var result = new SessionInput.RecordToolResult(started.callId(), false, null,
                    "interrupted: the sandbox-worker stopped while this call was running; it was not run again, "
                            + "so check the workspace before retrying", null, false, 0, true);
            ToolLedgerEntry end = new ToolLedgerEntry(started.callId(), started.sessionId(),
                    ToolLedgerEntry.State.FINISHED, workerId, clock.instant(), started.partition(), started.userId(),
                    started.causationId());
            Transactions.commit(producer, c, offsets -> {
                producer.send(input(started.sessionId(), started.userId(), started.causationId(), result,
                        TraceHeaders.newTrace()));
                producer.send(ledgerRecord(end));
            });
            ledger.put(key(end), end);
        }
        toInterrupt.clear();
    }

    /**
     * On being given partitions: re-read the ledger (another replica may have written to it since we last did), and
     * mark for reporting every call of those partitions that was started, never finished, and is not running here.
     * On giving partitions away: calls of theirs that have not started are given up (reported "not run"), and the
     * running ones are waited for and reported here, so the next owner never reports a live call as interrupted.
     */
    private final class Takeover implements ConsumerRebalanceListener {
        private final KafkaProducer<String, byte[]> producer;
        private final KafkaConsumer<String, byte[]> consumer;

        Takeover(KafkaProducer<String, byte[]> producer, KafkaConsumer<String, byte[]> consumer) {
            this.producer = producer;
            this.consumer = consumer;
        }

        @Override
        public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
            Set<Integer> mine = partitions.stream().map(TopicPartition::partition).collect(Collectors.toSet());
            ledger.clear();
            CompactedTopicView.readToEnd(kafka, Topics.TOOL_LEDGER.name(), "sandbox-ledger",
                    bytes -> EventCodec.decodeValue(bytes, ToolLedgerEntry.class)).values()
                    .forEach(e -> ledger.put(key(e), e));
            ledger.values().stream()
                    .filter(e -> e.state() == ToolLedgerEntry.State.STARTED && mine.contains(e.partition())
                            && !running.containsKey(key(e)))
                    .forEach(toInterrupt::add);
        }

        @Override
        public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
            Set<Integer> leaving = partitions.stream().map(TopicPartition::partition).collect(Collectors.toSet());
            running.values().stream().filter(s -> leaving.contains(s.partition) && !s.started)
                    .forEach(s -> s.cancelled = true);
            long deadline = System.nanoTime() + REVOKE_WAIT.toNanos();
            while (running.values().stream().anyMatch(s -> leaving.contains(s.partition))
                    && System.nanoTime() < deadline) {
                reportFinished(producer, consumer);
                pause();
            }
            // Another worker takes these sessions on from their recorded shell state. A sandbox left here would be
            // behind the log if a session came back later, so it goes now.
            sessionsHere.entrySet().removeIf(e -> {
                if (!leaving.contains(e.getValue().partition())) {
                    return false;
                }
                executor.releaseSandbox(e.getValue().userId(), e.getKey());
                return true;
            });
        }
    }

    private record SessionHere(String userId, int partition) {
    }

    private void awaitRunningCalls() {
        long deadline = System.nanoTime() + SHUTDOWN_GRACE.toNanos();
        while (finished.size() < running.size() && System.nanoTime() < deadline) {
            pause();
        }
    }

    private static void pause() {
        try {
            Thread.sleep(50);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Call ids are unique within a session only, so the ledger is keyed by both. */
    private static String key(String sessionId, String callId) {
        return sessionId + "/" + callId;
    }

    private static String key(ToolLedgerEntry e) {
        return key(e.sessionId(), e.callId());
    }

    /** The event in this record, or null if it cannot be read (another service's concern; skipped here). */
    private static EventEnvelope decode(ConsumerRecord<String, byte[]> r) {
        try {
            return EventCodec.decodeEvent(r.value());
        } catch (MalformedRecordException e) {
            LOG.warn("unreadable event at {}-{}@{} skipped: {}", r.topic(), r.partition(), r.offset(), e.getMessage());
            return null;
        }
    }

    private ToolLedgerEntry entry(EventEnvelope cause, String callId, int partition, ToolLedgerEntry.State state) {
        return new ToolLedgerEntry(callId, cause.sessionId(), state, workerId, clock.instant(), partition,
                cause.userId(), cause.id());
    }

    private ProducerRecord<String, byte[]> input(String sessionId, String userId, String causationId,
                                                 SessionInput input, SpanContext trace) {
        return Records.input(new InputEnvelope(UUID.randomUUID().toString(), sessionId, clock.instant(),
                causationId, userId, input), "sandbox-worker", trace);
    }

    private static ProducerRecord<String, byte[]> ledgerRecord(ToolLedgerEntry entry) {
        return new ProducerRecord<>(Topics.TOOL_LEDGER.name(), key(entry), EventCodec.encodeValue(entry));
    }

    @Override
    public void close() {
        loop.close();
        callThreads.shutdownNow();
        liveOutput.close(Duration.ofSeconds(2));
    }
}
