package dev.agentbus.orchestrator.deciding;

import dev.agentbus.events.input.SessionInput;

/**
 * An input a decision sends to another session (a sub-agent's start, its result for the parent, a cancel for a
 * child). The engine writes it to {@code agentbus.session-inputs}, keyed by {@code sessionId}, in the same
 * transaction as the decision's events: both are recorded, or neither. So a session talks to another only through
 * that session's inputs, and only that session's orchestrator writes its log (invariant 1).
 */
public record Outgoing(String sessionId, SessionInput input) {
}
