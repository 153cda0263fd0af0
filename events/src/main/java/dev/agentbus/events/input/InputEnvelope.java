package dev.agentbus.events.input;

import java.time.Instant;

/** One record on {@code agentbus.session-inputs}. Keyed by session id like every session record. */
public record InputEnvelope(String id, String sessionId, Instant time, String causationId, String userId,
                            SessionInput input) {
}
