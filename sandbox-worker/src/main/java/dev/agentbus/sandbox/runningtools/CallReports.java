package dev.agentbus.sandbox.runningtools;

import dev.agentbus.eventbus.Records;
import dev.agentbus.eventbus.TraceHeaders;
import dev.agentbus.events.input.InputEnvelope;
import dev.agentbus.events.input.SessionInput;
import dev.agentbus.events.ledger.ToolLedgerEntry;
import dev.agentbus.sandbox.tools.ToolOutcome;
import io.opentelemetry.api.trace.SpanContext;
import org.apache.kafka.clients.producer.ProducerRecord;

import java.time.Clock;
import java.util.UUID;

/**
 * What the worker tells the orchestrator about a call, as session inputs: kept apart from running and queueing so
 * that the wording of a result (cancelled, interrupted) and the fields it carries change in one place.
 */
final class CallReports {
    static final String INTERRUPTED = "interrupted: the sandbox-worker stopped while this call was running; it was "
            + "not run again, so check the workspace before retrying";

    private final Clock clock;
    private final String workerId;

    CallReports(Clock clock, String workerId) {
        this.clock = clock;
        this.workerId = workerId;
    }

    /** {@code mark_tool_call_started.v1}: this worker took the call on. */
    ProducerRecord<String, byte[]> started(TakenCall call) {
        return input(call.sessionId(), call.userId(), call.cause().id(),
                new SessionInput.MarkToolCallStarted(call.request().callId(), workerId), call.trace());
    }

    /** {@code record_tool_result.v1} of a call that ran here or was given up. */
    ProducerRecord<String, byte[]> result(FinishedCall f) {
        TakenCall call = f.call();
        return input(call.sessionId(), call.userId(), call.cause().id(), resultOf(f), call.trace());
    }

    /** {@code record_tool_result.v1} of a call a dead worker started and never finished. */
    ProducerRecord<String, byte[]> interrupted(ToolLedgerEntry started) {
        return input(started.sessionId(), started.userId(), started.causationId(),
                interruptedResult(started.callId()), TraceHeaders.newTrace());
    }

    ProducerRecord<String, byte[]> input(String sessionId, String userId, String causationId,
                                         SessionInput input, SpanContext trace) {
        return Records.input(new InputEnvelope(UUID.randomUUID().toString(), sessionId, clock.instant(),
                causationId, userId, input), "sandbox-worker", trace);
    }

    static SessionInput.RecordToolResult resultOf(FinishedCall f) {
        ToolOutcome o = f.outcome();
        return new SessionInput.RecordToolResult(f.call().request().callId(), o.ok(), o.output(), o.error(), o.diff(),
                o.truncated(), f.durationMs(), f.notRun(), o.shell(), f.checkpoint(), o.refusal());
    }

    static SessionInput.RecordToolResult interruptedResult(String callId) {
        return new SessionInput.RecordToolResult(callId, false, null, INTERRUPTED, null, false, 0, true);
    }

    /**
     * The outcome of a call whose turn was cancelled while it ran: failed, with what it printed and changed until
     * it was stopped (the checkpoint is still taken, so a rewind can undo it).
     */
    static ToolOutcome cancelled(ToolOutcome outcome) {
        return new ToolOutcome(false, outcome.output(), "cancelled: the turn was cancelled while this call "
                + "ran, so it was stopped; what it changed until then stays", null, outcome.truncated(),
                outcome.shell(), null, outcome.changedPaths());
    }
}
