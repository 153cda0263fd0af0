package dev.agentbus.sandbox.runningtools;

import dev.agentbus.eventbus.KafkaSettings;
import dev.agentbus.eventbus.Records;
import dev.agentbus.eventbus.TraceHeaders;
import dev.agentbus.eventbus.processing.Clients;
import dev.agentbus.eventbus.processing.Decoded;
import dev.agentbus.eventbus.processing.Handler;
import dev.agentbus.eventbus.processing.LoopContext;
import dev.agentbus.eventbus.processing.Outbox;
import dev.agentbus.events.session.SessionEvent.UserMessagePosted;
import dev.agentbus.eventbus.processing.ProcessorSettings;
import dev.agentbus.eventbus.processing.TransactionalProcessor;
import dev.agentbus.events.codec.EventCodec;
import dev.agentbus.events.input.InputEnvelope;
import dev.agentbus.events.input.SessionInput;
import dev.agentbus.events.ledger.ToolLedgerEntry;
import dev.agentbus.events.session.EventEnvelope;
import dev.agentbus.events.mcp.McpToolNames;
import dev.agentbus.events.session.SessionEvent.SessionCreated;
import dev.agentbus.events.session.SessionEvent.SessionDeleted;
import dev.agentbus.events.session.SessionEvent.SessionForked;
import dev.agentbus.events.session.SessionEvent.TurnEnded;
import dev.agentbus.events.session.TurnOutcome;
import dev.agentbus.events.session.SessionEvent.ToolCallRequested;
import dev.agentbus.events.stream.StreamChunk;
import dev.agentbus.events.topics.Topics;
import dev.agentbus.sandbox.checkpointing.CheckpointException;
import dev.agentbus.sandbox.checkpointing.Checkpoints;
import dev.agentbus.sandbox.checkpointing.WorkspaceHistory;
import dev.agentbus.sandbox.mcp.McpSessions;
import dev.agentbus.sandbox.tools.ToolExecutor;
import dev.agentbus.sandbox.tools.ToolOutcome;
import dev.agentbus.telemetry.logging.LogContext;
import dev.agentbus.telemetry.metrics.AgentbusMetrics;
import dev.agentbus.telemetry.tracing.OpenSpans;
import dev.agentbus.telemetry.tracing.Traced;
import dev.agentbus.telemetry.tracing.Tracing;
import io.opentelemetry.api.trace.SpanContext;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

/**
 * Runs each requested tool call at most once, and reports its result exactly once (invariant 4), with calls of
 * different sessions running side by side and the calls of one session one after another, in the order asked.
 *
 * <p>It is the {@link Handler} of a {@link TransactionalProcessor} on {@code agentbus.session-events}, so every Kafka
 * write happens on the loop's thread, in the transaction of a poll batch:
 * <ol>
 *   <li>for each new request of the batch: the ledger entry STARTED and {@code mark_tool_call_started.v1}, committed
 *       with the consumed offsets past the requests — only then is the call queued ({@link CallQueue}). A tool that
 *       only reads needs no STARTED and is queued at once (see {@link #takeOn});</li>
 *   <li>for each call that finished meanwhile: {@code record_tool_result.v1} and the ledger entry FINISHED. A call
 *       that finishes wakes the loop, so its result does not wait for the poll's time-out.</li>
 * </ol>
 * If the worker dies in between, the {@link ToolLedger} holds STARTED without FINISHED. Whichever worker is next given
 * that session's partition (this one restarted, or another replica) reads the ledger and reports the call
 * "interrupted, not re-run" instead of running it again. A worker giving a partition away first reports the calls of
 * that partition that are running, and gives up the queued ones ("not run").
 *
 * <p>The parts: {@link ToolLedger} (the bookkeeping of STARTED and FINISHED), {@link CallQueue} (the per-session
 * order and the concurrency slots), {@link WorkspaceHistory} (a checkpoint after each call that may change files,
 * and a fork's workspace restored from its source's checkpoint, on the loop's thread before any later call of the
 * fork can start: same partition, so same order), and {@link RedactingToolCalls} over {@link WorkspaceToolCalls}
 * (the tool itself, with secrets masked). The user tool {@code rewind} is a tool like the others.
 */
final class ToolRunner implements Handler<EventEnvelope>, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ToolRunner.class);
    private static final String GROUP = "agentbus-sandbox-worker";
    private static final Duration SHUTDOWN_GRACE = Duration.ofSeconds(5);
    /** Longer than the longest shell command (120 s), shorter than the consumer's max.poll.interval.ms (300 s). */
    private static final Duration REVOKE_WAIT = Duration.ofSeconds(150);
    /**
     * Most session events are not tool requests, and reading one again after a crash changes nothing (the ledger
     * knows every call taken on), so their offsets wait for the next transaction rather than cost one of their own.
     */
    private static final Duration HELD_OFFSETS = Duration.ofSeconds(1);

    private final ToolExecutor executor;
    private final ToolCalls tools;
    private final WorkspaceHistory history;
    private final ToolLedger ledger;
    private final Workspaces workspaces;
    private final ContextFiles contextFiles;
    private final AttachedImageReader images;
    private final CallQueue queue;
    private final Clock clock;
    private final String workerId;
    private final KafkaProducer<String, byte[]> liveOutput;
    private final TransactionalProcessor<EventEnvelope> processor;
    /** The sessions' MCP servers; null when this runner has none (some tests). */
    private final McpSessions mcp;
    /** The sessions this worker ran calls for, by id: their owner and partition, to free their sandboxes on revoke. */
    private final Map<String, SessionHere> sessionsHere = new ConcurrentHashMap<>();
    /** Deleted sessions whose files go once their last call is reported: session id to owner; loop thread only. */
    private final Map<String, String> toRemove = new LinkedHashMap<>();
    /** Calls of newly assigned partitions that a dead worker started and never finished; loop thread only. */
    private final List<ToolLedgerEntry> toInterrupt = new ArrayList<>();
    /** The span of each call taken on and not yet run, ended by {@link #run}. */
    private final OpenSpans toolSpans = new OpenSpans();

    private record SessionHere(String userId, int partition) {
    }

    /** With checkpoints kept beside the workspaces. */
    public ToolRunner(KafkaSettings kafka, ToolExecutor executor, Workspaces workspaces, Clock clock,
                      int maxConcurrentCalls) {
        this(kafka, executor, workspaces, new Checkpoints(workspaces.root(), clock), clock,
                maxConcurrentCalls);
    }

    public ToolRunner(KafkaSettings kafka, ToolExecutor executor, Workspaces workspaces, Checkpoints checkpoints,
                      Clock clock, int maxConcurrentCalls) {
        this(kafka, executor, workspaces, checkpoints, clock, maxConcurrentCalls, ContextFiles.DEFAULT_MAX_CHARS);
    }

    /** @param contextFileMaxChars the most of each context file reported ({@link ContextFiles}) */
    public ToolRunner(KafkaSettings kafka, ToolExecutor executor, Workspaces workspaces, Checkpoints checkpoints,
                      Clock clock, int maxConcurrentCalls, int contextFileMaxChars) {
        this(kafka, executor, workspaces, checkpoints, clock, maxConcurrentCalls, contextFileMaxChars, null);
    }

    /** @param mcp the sessions' MCP servers, whose tools it runs too ({@link McpToolCalls}); null for none */
    public ToolRunner(KafkaSettings kafka, ToolExecutor executor, Workspaces workspaces, Checkpoints checkpoints,
                      Clock clock, int maxConcurrentCalls, int contextFileMaxChars, McpSessions mcp) {
        this.mcp = mcp;
        this.workspaces = workspaces;
        this.images = new AttachedImageReader(workspaces);
        this.contextFiles = new ContextFiles(contextFileMaxChars);
        this.executor = executor.withCheckpoints(checkpoints);
        ToolCalls builtIn = new WorkspaceToolCalls(this.executor, workspaces);
        this.tools = new RedactingToolCalls(mcp == null ? builtIn : new McpToolCalls(mcp, workspaces, builtIn));
        this.history = new WorkspaceHistory(checkpoints, workspaces::forSession);
        this.clock = clock;
        this.workerId = "sandbox-worker-" + kafka.instanceId();
        this.ledger = new ToolLedger(kafka, workerId, clock);
        this.queue = new CallQueue(maxConcurrentCalls, this::run, this::wake);
        // Live output is ephemeral and must show while the command runs, so it is not part of any transaction.
        this.liveOutput = new KafkaProducer<>(kafka.producer("sandbox-output"));
        // The session log is the orchestrator's input to dead-letter, not ours: an unreadable event is skipped here.
        this.processor = new TransactionalProcessor<>(
                new ProcessorSettings("sandbox-runner", "sandbox-worker", Topics.SESSION_EVENTS.name(),
                        Duration.ofMillis(50), ProcessorSettings.Unreadable.SKIP, HELD_OFFSETS),
                Clients.kafka(kafka.transactionalProducer("sandbox-worker"), kafka.consumer(GROUP, "sandbox-worker")),
                (ConsumerRecord<String, byte[]> r) -> EventCodec.decodeEvent(r.value()), this);
    }

    public void start() {
        processor.start();
    }

    private void wake() {
        processor.wake();
    }

    /** A new run of the loop: the ledger is read again when partitions are assigned. */
    @Override
    public void onStart() {
        ledger.forget();
        toInterrupt.clear();
    }

    @Override
    public void handle(List<Decoded<EventEnvelope>> records, Outbox out, LoopContext loop) {
        Set<String> waitingForCommit = new HashSet<>();
        for (Decoded<EventEnvelope> d : records) {
            EventEnvelope envelope = d.value();
            if (envelope.event() instanceof TurnEnded ended && ended.outcome() == TurnOutcome.CANCELLED) {
                // Stop means stop: the command of the cancelled turn is killed rather than left to run to its end.
                // Its result is still reported once, like any call's, so its request stays answered.
                queue.stopSession(envelope.sessionId());
            }
            if (envelope.event() instanceof SessionDeleted) {
                if (mcp != null) {
                    mcp.stop(envelope.sessionId());
                }
                // Its files go once no call of it is left here (a command being killed still reports, and its
                // checkpoint would otherwise bring the repository back).
                queue.stopSession(envelope.sessionId());
                toRemove.put(envelope.sessionId(), envelope.userId());
            }
            if (envelope.event() instanceof UserMessagePosted posted && !posted.imagePaths().isEmpty()) {
                // In this batch's transaction: the model call waiting for them sees them as soon as it commits.
                images.read(new AttachedImageReader.EnvelopeOfMessage(envelope, posted)).forEach(out::send);
            }
            if (envelope.event() instanceof SessionForked fork) {
                // On the loop's thread, before the offset moves past it: a crash during the restore means it is done
                // again, and no later call of the fork can start before it is done.
                history.startFork(envelope.userId(), envelope.sessionId(), fork);
            }
            // After a fork's workspace is restored: its .mcp.json may name servers too.
            if (mcp != null && (envelope.event() instanceof SessionCreated
                    || envelope.event() instanceof SessionForked)) {
                startMcpServers(envelope);
            }
            if (envelope.event() instanceof ToolCallRequested call && runsHere(call.name())
                    && !ledger.knows(envelope.sessionId(), call.callId())
                    && !queue.holds(ToolLedger.key(envelope.sessionId(), call.callId()))) {
                // The call's span starts here, so its records (started, output, result) carry its context; it ends
                // when the tool has run (see run).
                Traced span = toolSpans.put(ToolLedger.key(envelope.sessionId(), call.callId()),
                        Tracing.consume("sandbox-worker tool " + call.name(), d.record().headers())
                                .attribute("agentbus.session_id", envelope.sessionId())
                                .attribute("agentbus.tool", call.name()));
                takeOn(new TakenCall(envelope, call, d.record().partition(), span.context()), out, waitingForCommit);
            }
        }
    }

    private static boolean runsHere(String toolName) {
        return ToolExecutor.TOOL_NAMES.contains(toolName) || McpToolNames.isMcp(toolName);
    }

    /**
     * A new session (or fork): its MCP servers are started and listed off the loop's thread (starting one may take
     * seconds), and the listing is recorded at the next iteration. A session without any configured is not
     * listed at all, so its log stays as it was before MCP existed.
     */
    private void startMcpServers(EventEnvelope envelope) {
        if (!mcp.hasServersBeyondWorkspace(envelope.userId()) && !java.nio.file.Files.isDirectory(
                workspaces.root().resolve(envelope.userId()).resolve(envelope.sessionId()))) {
            return; // no servers of the team or the user, no workspace (so no .mcp.json) yet: nothing to start
        }
        Thread.ofVirtual().name("mcp-start-" + envelope.sessionId()).start(() -> {
            try {
                java.nio.file.Path workspace = workspaces.forSession(envelope.userId(), envelope.sessionId());
                if (mcp.configured(envelope.userId(), workspace)) {
                    mcp.start(envelope.userId(), envelope.sessionId(), workspace, envelope.id());
                    wake();
                }
            } catch (IOException | RuntimeException e) {
                LOG.warn("session {}: its MCP servers could not be started: {}", envelope.sessionId(), e.toString());
            }
        });
    }

    /** The MCP listings waiting to be recorded; before the results, so a new tool is known to the next model call. */
    private void reportMcpListings(Outbox out) {
        if (mcp == null) {
            return;
        }
        for (McpSessions.Listing l : mcp.takeListings()) {
            out.send(input(l.sessionId(), l.userId(), l.causationId(), new SessionInput.RecordMcpTools(l.servers()),
                    TraceHeaders.newTrace()));
        }
    }

    /** The tools that change nothing (no files, no processes): running one again repeats no side effect. */
    private static boolean onlyReads(TakenCall call) {
        return !Checkpoints.mayChangeFiles(call.request().name());
    }

    /**
     * STARTED and "started" in the batch's transaction; the call is queued only once they are committed.
     *
     * <p>A tool that only reads ({@link #onlyReads}) has no side effect that running it twice could repeat, so it
     * needs no STARTED: it is queued at once, and its "started" goes with its result, in one transaction. That takes
     * a transaction and a hop through the orchestrator off each such step. If this worker dies while it runs, the
     * next owner runs it again (nothing was written) rather than reporting it interrupted; if the request is seen
     * twice, the orchestrator records the first result and ignores the second.
     */
    private void takeOn(TakenCall call, Outbox out, Set<String> waitingForCommit) {
        Runnable queueIt = () -> {
            sessionsHere.put(call.sessionId(), new SessionHere(call.userId(), call.partition()));
            queue.submit(call);
        };
        if (onlyReads(call)) {
            ledger.takenOnUnrecorded(call);
            if (waitingForCommit.contains(call.sessionId())) {
                out.afterCommit(queueIt); // behind an earlier call of its session that waits for its STARTED
            } else {
                queueIt.run();
            }
            return;
        }
        out.send(ledger.started(call));
        out.send(input(call.sessionId(), call.userId(), call.cause().id(),
                new SessionInput.MarkToolCallStarted(call.request().callId(), workerId), call.trace()));
        waitingForCommit.add(call.sessionId());
        out.afterCommit(queueIt);
    }

    /** On a virtual thread of the {@link CallQueue}: the tool, then the checkpoint. */
    private FinishedCall run(TakenCall call) {
        ToolCallRequested request = call.request();
        long startedAt = System.nanoTime();
        ToolOutcome outcome;
        try {
            outcome = tools.run(call, chunk -> liveOutput.send(Records.streamChunk(new StreamChunk(call.sessionId(),
                    StreamChunk.Kind.OUTPUT, request.callId(), chunk, clock.instant()), call.trace())));
        } catch (Throwable t) {
            // Never let one call break the chain of its session's later calls, or go unreported.
            outcome = new ToolOutcome(false, "", "the tool failed unexpectedly: " + t, null, false);
        }
        if (queue.wasStopped(call.key())) {
            // Its turn was cancelled: the sandbox killed the command (and what it started) on the interrupt. The
            // interrupt is spent here, so the checkpoint of what it changed until then is still taken.
            Thread.interrupted();
            outcome = new ToolOutcome(false, outcome.output(), "cancelled: the turn was cancelled while this call "
                    + "ran, so it was stopped; what it changed until then stays", null, outcome.truncated(),
                    outcome.shell(), null, outcome.changedPaths());
        }
        long ms = (System.nanoTime() - startedAt) / 1_000_000; // the call's own time, without the checkpoint
        AgentbusMetrics.toolCall(request.name(), java.time.Duration.ofNanos(System.nanoTime() - startedAt),
                outcome.ok());
        toolSpans.end(call.key(), outcome.ok() ? null : outcome.error());
        String checkpoint = history.checkpointAfter(call.userId(), call.sessionId(), request.name(),
                request.callId(), outcome.changedPaths()).orElse(null);
        try (LogContext log = LogContext.of(call.sessionId(), call.trace())) {
            LOG.info("session {}: {} {} in {} ms", call.sessionId(), request.name(), outcome.ok() ? "ok" : "failed",
                    ms);
        }
        if (mcp != null && Checkpoints.mayChangeFiles(request.name())) {
            try {
                mcp.workspaceMayHaveChanged(call.userId(), call.sessionId(),
                        workspaces.forSession(call.userId(), call.sessionId()), call.cause().id());
            } catch (IOException | RuntimeException e) {
                LOG.warn("session {}: its MCP servers could not be listed again: {}", call.sessionId(), e.toString());
            }
        }
        return new FinishedCall(call, outcome, ms, false, checkpoint, contextFilesAfter(call));
    }

    /** The context files, when a call that may change files changed them; null otherwise. */
    private java.util.List<dev.agentbus.events.session.ContextFile> contextFilesAfter(TakenCall call) {
        if (!Checkpoints.mayChangeFiles(call.request().name())) {
            return null;
        }
        try {
            return contextFiles.changed(call.sessionId(), workspaces.forSession(call.userId(), call.sessionId()))
                    .orElse(null);
        } catch (java.io.IOException e) {
            return null;
        }
    }

    /** Every iteration, in the batch's transaction: the calls found interrupted, and those finished meanwhile. */
    @Override
    public void onIteration(Outbox out, LoopContext loop) {
        reportInterrupted(out);
        reportMcpListings(out);
        reportFinished(out);
        removeDeletedSessions();
    }

    /**
     * The sandbox, workspace and checkpoints of each deleted session with no call left here. Removing them again
     * changes nothing, so a worker that re-reads the event after a restart simply does it again.
     */
    private void removeDeletedSessions() {
        toRemove.entrySet().removeIf(e -> {
            String sessionId = e.getKey();
            if (queue.holdsSession(sessionId)) {
                return false;
            }
            sessionsHere.remove(sessionId);
            executor.releaseSandbox(e.getValue(), sessionId);
            try {
                history.forget(e.getValue(), sessionId);
                workspaces.delete(e.getValue(), sessionId);
                LOG.info("session {} was deleted: its sandbox, workspace and checkpoints are removed", sessionId);
            } catch (IOException | CheckpointException failed) {
                LOG.error("session {} was deleted, but its files could not all be removed: {}", sessionId,
                        failed.getMessage());
            }
            return true;
        });
    }

    /**
     * The result and FINISHED together, once per call: "results exactly once". A call leaves the queue only after
     * its transaction committed; if the commit fails, the loop starts over and reports it then.
     */
    private void reportFinished(Outbox out) {
        List<FinishedCall> done = queue.finished();
        if (done.isEmpty()) {
            return;
        }
        for (FinishedCall f : done) {
            ToolOutcome o = f.outcome();
            TakenCall call = f.call();
            if (onlyReads(call) && !f.notRun()) {
                // its "started" was not sent when it was taken on (see takeOn); before the result, as for any call
                out.send(input(call.sessionId(), call.userId(), call.cause().id(),
                        new SessionInput.MarkToolCallStarted(call.request().callId(), workerId), call.trace()));
            }
            if (f.contextFiles() != null) {
                // Before the result: the model call that the result lets happen already has the new files.
                out.send(input(call.sessionId(), call.userId(), call.cause().id(),
                        new SessionInput.RecordContextFiles(f.contextFiles()), call.trace()));
                out.afterCommit(() -> contextFiles.reported(call.sessionId(), f.contextFiles()));
            }
            out.send(input(call.sessionId(), call.userId(), call.cause().id(),
                    new SessionInput.RecordToolResult(call.request().callId(), o.ok(), o.output(), o.error(), o.diff(),
                            o.truncated(), f.durationMs(), f.notRun(), o.shell(), f.checkpoint(), o.refusal()),
                    call.trace()));
            out.send(ledger.finished(call));
        }
        out.afterCommit(() -> queue.reported(done));
    }

    /** Calls of newly assigned partitions that a dead worker started and never finished. */
    private void reportInterrupted(Outbox out) {
        for (ToolLedgerEntry started : toInterrupt) {
            LOG.warn("tool call {} of session {} was started by {} and never finished; reporting it interrupted, "
                    + "not running it again", started.callId(), started.sessionId(), started.worker());
            out.send(input(started.sessionId(), started.userId(), started.causationId(),
                    new SessionInput.RecordToolResult(started.callId(), false, null,
                            "interrupted: the sandbox-worker stopped while this call was running; it was not run "
                                    + "again, so check the workspace before retrying", null, false, 0, true),
                    TraceHeaders.newTrace()));
            out.send(ledger.finished(started));
        }
        // If the transaction fails, the run ends and the next assignment finds these calls again.
        toInterrupt.clear();
    }

    /**
     * On being given partitions: re-read the ledger (another replica may have written to it since we last did), and
     * mark for reporting every call of those partitions that was started, never finished, and is not running here.
     */
    @Override
    public void onAssigned(Collection<TopicPartition> partitions, LoopContext loop) {
        Set<Integer> mine = partitions.stream().map(TopicPartition::partition).collect(Collectors.toSet());
        ledger.reload();
        toInterrupt.addAll(ledger.interrupted(mine, queue::holds));
    }

    /**
     * On giving partitions away: calls of theirs that have not started are given up (reported "not run"), and the
     * running ones are waited for and reported here, so the next owner never reports a live call as interrupted.
     */
    @Override
    public void onRevoked(Collection<TopicPartition> partitions, LoopContext loop) {
        Set<Integer> leaving = partitions.stream().map(TopicPartition::partition).collect(Collectors.toSet());
        queue.giveUp(leaving);
        long deadline = System.nanoTime() + REVOKE_WAIT.toNanos();
        if (queue.holdsCallsOf(leaving)) {
            LOG.info("partitions {} leave this worker: reporting their calls first: {}", leaving,
                    queue.describe(leaving));
        }
        while (queue.holdsCallsOf(leaving)) {
            loop.inTransaction(this::reportFinished);
            // Checked again before waiting: once the last one is reported there is nothing left to wait for.
            if (!queue.holdsCallsOf(leaving) || System.nanoTime() >= deadline
                    || !awaitFinished(Duration.ofNanos(deadline - System.nanoTime()))) {
                break;
            }
        }
        // Another worker takes these sessions on from their recorded shell state. A sandbox left here would be
        // behind the log if a session came back later, so it goes now.
        sessionsHere.entrySet().removeIf(e -> {
            if (!leaving.contains(e.getValue().partition())) {
                return false;
            }
            executor.releaseSandbox(e.getValue().userId(), e.getKey());
            if (mcp != null) {
                mcp.stop(e.getKey());
            }
            return true;
        });
    }

    /** Closing: the calls still running get a moment to finish, and what has finished is reported. */
    @Override
    public void onStop(LoopContext loop) {
        try {
            queue.awaitAllFinished(SHUTDOWN_GRACE);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        loop.inTransaction(this::reportFinished);
    }

    /** Waits for the next call to finish, at most {@code timeout}; false when interrupted. */
    private boolean awaitFinished(Duration timeout) {
        try {
            queue.awaitFinished(timeout.isNegative() ? Duration.ZERO : timeout);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private ProducerRecord<String, byte[]> input(String sessionId, String userId, String causationId,
                                                 SessionInput input, SpanContext trace) {
        return Records.input(new InputEnvelope(UUID.randomUUID().toString(), sessionId, clock.instant(),
                causationId, userId, input), "sandbox-worker", trace);
    }

    @Override
    public void close() {
        processor.close();
        queue.close();
        if (mcp != null) {
            mcp.close();
        }
        liveOutput.close(Duration.ofSeconds(2));
    }
}
