package dev.agentbus.events.ledger;

import java.time.Instant;

/**
 * The sandbox-worker's own durable note about one tool call, on the compacted topic {@code agentbus.tool-ledger}
 * keyed by call id. STARTED is committed before the call runs; FINISHED in the same transaction as the result.
 * A call found STARTED but not FINISHED by the worker that takes over its session's partition (after a crash) is
 * reported "interrupted, not re-run" (invariant 4); the fields below are what that report needs.
 *
 * @param partition   the session-events partition the request came from: the unit a worker takes over
 * @param userId      the session's user, for the report's envelope
 * @param causationId the id of the {@code tool_call.requested.v1} event
 */
public record ToolLedgerEntry(String callId, String sessionId, State state, String worker, Instant time,
                              int partition, String userId, String causationId) {
    public enum State { STARTED, FINISHED }
}
