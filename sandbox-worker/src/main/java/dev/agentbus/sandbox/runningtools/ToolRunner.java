package dev.agentbus.sandbox.runningtools;

import dev.agentbus.eventbus.KafkaSettings;
import dev.agentbus.eventbus.processing.Clients;
import dev.agentbus.eventbus.processing.Decoded;
import dev.agentbus.eventbus.processing.Handler;
import dev.agentbus.eventbus.processing.LoopContext;
import dev.agentbus.eventbus.processing.Outbox;
import dev.agentbus.eventbus.processing.ProcessorSettings;
import dev.agentbus.eventbus.processing.TransactionalProcessor;
import dev.agentbus.events.codec.EventCodec;
import dev.agentbus.events.mcp.McpToolNames;
import dev.agentbus.events.session.EventEnvelope;
import dev.agentbus.events.session.SessionEvent.SessionCreated;
import dev.agentbus.events.session.SessionEvent.SessionDeleted;
import dev.agentbus.events.session.SessionEvent.SessionForked;
import dev.agentbus.events.session.SessionEvent.ToolCallRequested;
import dev.agentbus.events.session.SessionEvent.TurnEnded;
import dev.agentbus.events.session.SessionEvent.UserMessagePosted;
import dev.agentbus.events.session.TurnOutcome;
import dev.agentbus.events.topics.Topics;
import dev.agentbus.sandbox.checkpointing.Checkpoints;
import dev.agentbus.sandbox.checkpointing.WorkspaceHistory;
import dev.agentbus.sandbox.mcp.McpSessions;
import dev.agentbus.sandbox.tools.ToolExecutor;
import dev.agentbus.telemetry.tracing.OpenSpans;
import dev.agentbus.telemetry.tracing.Traced;
import dev.agentbus.telemetry.tracing.Tracing;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
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
 * order and the concurrency slots), {@link CallExecution} (one call run: the tool, then its checkpoint),
 * {@link CallReporter} and {@link CallReports} (the results and what they say), {@link SessionsHere} (the sandboxes
 * and files to free), {@link McpLifecycle} (the sessions' MCP servers), {@link WorkspaceHistory} (a checkpoint after
 * each call that may change files, and a fork's workspace restored from its source's checkpoint, on the loop's
 * thread before any later call of the fork can start: same partition, so same order), and
 * {@link RedactingToolCalls} over {@link WorkspaceToolCalls} (the tool itself, with secrets masked). The user tool
 * {@code rewind} is a tool like the others.
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

    private final WorkspaceHistory history;
    private final ToolLedger ledger;
    private final AttachedImageReader images;
    private final CallQueue queue;
    private final CallReports reports;
    private final CallReporter reporter;
    private final SessionsHere sessionsHere;
    private final McpLifecycle mcp;
    private final KafkaProducer<String, byte[]> liveOutput;
    private final TransactionalProcessor<EventEnvelope> processor;
    /** The span of each call taken on and not yet run, ended by {@link CallExecution#run}. */
    private final OpenSpans toolSpans = new OpenSpans();

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
        ToolExecutor withCheckpoints = executor.withCheckpoints(checkpoints);
        ToolCalls builtIn = new WorkspaceToolCalls(withCheckpoints, workspaces);
        ToolCalls tools = new RedactingToolCalls(mcp == null ? builtIn : new McpToolCalls(mcp, workspaces, builtIn));
        ContextFiles contextFiles = new ContextFiles(contextFileMaxChars);
        String workerId = "sandbox-worker-" + kafka.instanceId();
        this.images = new AttachedImageReader(workspaces);
        this.history = new WorkspaceHistory(checkpoints, workspaces::forSession);
        this.ledger = new ToolLedger(kafka, workerId, clock);
        this.reports = new CallReports(clock, workerId);
        this.mcp = new McpLifecycle(mcp, workspaces, reports, this::wake);
        // Live output is ephemeral and must show while the command runs, so it is not part of any transaction.
        this.liveOutput = new KafkaProducer<>(kafka.producer("sandbox-output"));
        CallExecution execution = new CallExecution(tools, history, workspaces, contextFiles, this.mcp, liveOutput,
                clock, toolSpans, this::wasStopped);
        this.queue = new CallQueue(maxConcurrentCalls, execution::run, this::wake);
        this.reporter = new CallReporter(queue, ledger, contextFiles, reports);
        this.sessionsHere = new SessionsHere(queue, withCheckpoints, history, workspaces, this.mcp);
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

    /** For {@link CallExecution}, made before the queue it asks. */
    private boolean wasStopped(String key) {
        return queue.wasStopped(key);
    }

    /** A new run of the loop: the ledger is read again when partitions are assigned. */
    @Override
    public void onStart() {
        ledger.forget();
        reporter.forgetInterrupted();
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
                mcp.stop(envelope.sessionId());
                // Its files go once no call of it is left here (a command being killed still reports, and its
                // checkpoint would otherwise bring the repository back).
                queue.stopSession(envelope.sessionId());
                sessionsHere.deleted(envelope.sessionId(), envelope.userId());
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
            if (envelope.event() instanceof SessionCreated || envelope.event() instanceof SessionForked) {
                mcp.sessionStarted(envelope);
            }
            if (envelope.event() instanceof ToolCallRequested call && runsHere(call.name())
                    && !ledger.knows(envelope.sessionId(), call.callId())
                    && !queue.holds(ToolLedger.key(envelope.sessionId(), call.callId()))) {
                // The call's span starts here, so its records (started, output, result) carry its context; it ends
                // when the tool has run (see CallExecution#run).
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

    /** The tools that change nothing (no files, no processes): running one again repeats no side effect. */
    static boolean onlyReads(TakenCall call) {
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
            sessionsHere.calledHere(call);
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
        out.send(reports.started(call));
        waitingForCommit.add(call.sessionId());
        out.afterCommit(queueIt);
    }

    /** Every iteration, in the batch's transaction: the calls found interrupted, and those finished meanwhile. */
    @Override
    public void onIteration(Outbox out, LoopContext loop) {
        reporter.reportInterrupted(out);
        mcp.reportListings(out);
        reporter.reportFinished(out);
        sessionsHere.removeDeleted();
    }

    /**
     * On being given partitions: re-read the ledger (another replica may have written to it since we last did), and
     * mark for reporting every call of those partitions that was started, never finished, and is not running here.
     */
    @Override
    public void onAssigned(Collection<TopicPartition> partitions, LoopContext loop) {
        Set<Integer> mine = partitions.stream().map(TopicPartition::partition).collect(Collectors.toSet());
        ledger.reload();
        reporter.foundInterrupted(ledger.interrupted(mine, queue::holds));
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
            loop.inTransaction(reporter::reportFinished);
            // Checked again before waiting: once the last one is reported there is nothing left to wait for.
            if (!queue.holdsCallsOf(leaving) || System.nanoTime() >= deadline
                    || !awaitFinished(Duration.ofNanos(deadline - System.nanoTime()))) {
                break;
            }
        }
        sessionsHere.release(leaving);
    }

    /** Closing: the calls still running get a moment to finish, and what has finished is reported. */
    @Override
    public void onStop(LoopContext loop) {
        try {
            queue.awaitAllFinished(SHUTDOWN_GRACE);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        loop.inTransaction(reporter::reportFinished);
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

    @Override
    public void close() {
        processor.close();
        queue.close();
        mcp.close();
        liveOutput.close(Duration.ofSeconds(2));
    }
}
