package dev.agentbus.events.ledger;

import java.time.Instant;

/**
 * The sandbox-worker's own durable note about one tool call, on the compacted topic {@code agentbus.tool-ledger}
 * keyed by call id. STARTED is committed before the call runs; FINISHED in the same transaction as the result.
 * A call found STARTED but not FINISHED after a crash is reported "interrupted, not re-run" (invariant 4).
 */
public record ToolLedgerEntry(String callId, String sessionId, State state, String worker, Instant time) {
    public enum State { STARTED, FINISHED }
}
