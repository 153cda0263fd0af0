package dev.agentbus.sandbox.runningtools;

import dev.agentbus.eventbus.Records;
import dev.agentbus.events.session.ContextFile;
import dev.agentbus.events.session.SessionEvent.ToolCallRequested;
import dev.agentbus.events.stream.StreamChunk;
import dev.agentbus.sandbox.checkpointing.Checkpoints;
import dev.agentbus.sandbox.checkpointing.WorkspaceHistory;
import dev.agentbus.sandbox.tools.ToolOutcome;
import dev.agentbus.telemetry.logging.LogContext;
import dev.agentbus.telemetry.metrics.AgentbusMetrics;
import dev.agentbus.telemetry.tracing.OpenSpans;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.time.Clock;
import java.util.List;
import java.util.function.Predicate;

/**
 * Runs one call on a virtual thread of the {@link CallQueue}: the tool with its live output, then what follows a
 * change of files (the checkpoint, the context files, the MCP servers' listing). Apart from {@link ToolRunner}
 * because none of it touches the loop's transaction: it only produces the {@link FinishedCall} the loop reports.
 */
final class CallExecution {
    /** The runner's logger, as before this class was split off: log settings that name it keep working. */
    private static final Logger LOG = LoggerFactory.getLogger(ToolRunner.class);

    private final ToolCalls tools;
    private final WorkspaceHistory history;
    private final Workspaces workspaces;
    private final ContextFiles contextFiles;
    private final McpLifecycle mcp;
    private final KafkaProducer<String, byte[]> liveOutput;
    private final Clock clock;
    /** The span of each call taken on and not yet run, ended here. */
    private final OpenSpans toolSpans;
    /** Whether the call (by ledger key) was stopped because its turn was cancelled. */
    private final Predicate<String> wasStopped;

    CallExecution(ToolCalls tools, WorkspaceHistory history, Workspaces workspaces, ContextFiles contextFiles,
                  McpLifecycle mcp, KafkaProducer<String, byte[]> liveOutput, Clock clock, OpenSpans toolSpans,
                  Predicate<String> wasStopped) {
        this.tools = tools;
        this.history = history;
        this.workspaces = workspaces;
        this.contextFiles = contextFiles;
        this.mcp = mcp;
        this.liveOutput = liveOutput;
        this.clock = clock;
        this.toolSpans = toolSpans;
        this.wasStopped = wasStopped;
    }

    /** The tool, then the checkpoint. */
    FinishedCall run(TakenCall call) {
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
        if (wasStopped.test(call.key())) {
            // Its turn was cancelled: the sandbox killed the command (and what it started) on the interrupt. The
            // interrupt is spent here, so the checkpoint of what it changed until then is still taken.
            Thread.interrupted();
            outcome = CallReports.cancelled(outcome);
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
        if (Checkpoints.mayChangeFiles(request.name())) {
            mcp.workspaceMayHaveChanged(call);
        }
        return new FinishedCall(call, outcome, ms, false, checkpoint, contextFilesAfter(call));
    }

    /** The context files, when a call that may change files changed them; null otherwise. */
    private List<ContextFile> contextFilesAfter(TakenCall call) {
        if (!Checkpoints.mayChangeFiles(call.request().name())) {
            return null;
        }
        try {
            return contextFiles.changed(call.sessionId(), workspaces.forSession(call.userId(), call.sessionId()))
                    .orElse(null);
        } catch (IOException e) {
            return null;
        }
    }
}
