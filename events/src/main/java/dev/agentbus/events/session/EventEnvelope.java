package dev.agentbus.events.session;

import java.time.Instant;

/**
 * One record on {@code agentbus.session-events}: the event plus who, when and why.
 *
 * @param id          unique id of this event
 * @param sessionId   the session; also the Kafka key
 * @param seq         1, 2, 3 … per session, assigned by the single writer, never a gap
 * @param time        when the orchestrator recorded it
 * @param causationId id of the input (or event) that caused it
 * @param userId      the user the session belongs to
 */
public record EventEnvelope(String id, String sessionId, long seq, Instant time, String causationId, String userId,
                            SessionEvent event) {
}
