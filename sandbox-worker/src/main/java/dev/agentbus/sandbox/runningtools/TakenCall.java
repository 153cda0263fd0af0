package dev.agentbus.sandbox.runningtools;

import dev.agentbus.events.session.EventEnvelope;
import dev.agentbus.events.session.SessionEvent.ToolCallRequested;
import io.opentelemetry.api.trace.SpanContext;

/**
 * A tool call this worker took on: its STARTED is committed, so it runs here and nowhere else (a tool that only
 * reads needs none, see ToolRunner#takeOn).
 *
 * @param cause     the {@code tool_call.requested.v1} event
 * @param partition the session-events partition it came from, the unit a worker owns
 * @param trace     the request's trace, continued by the result
 */
record TakenCall(EventEnvelope cause, ToolCallRequested request, int partition, SpanContext trace) {
    String sessionId() {
        return cause.sessionId();
    }

    String userId() {
        return cause.userId();
    }

    /** Call ids are unique within a session only. */
    String key() {
        return ToolLedger.key(cause.sessionId(), request.callId());
    }
}
