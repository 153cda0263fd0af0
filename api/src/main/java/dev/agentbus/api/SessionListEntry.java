package dev.agentbus.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.agentbus.events.state.SessionState;

import java.time.Instant;

/**
 * One session of {@code GET /api/v1/sessions}. Every field is always present; {@code lastOutcome} is null before the
 * first turn ended.
 *
 * @param owner       the user id of the session's owner (a session shared with a group lists its owner, who alone
 *                    may share or delete it)
 * @param status      {@code IDLE}, {@code RUNNING}, {@code WAITING} or {@code AWAITING_APPROVAL}
 * @param lastOutcome {@code COMPLETED}, {@code CANCELLED}, {@code ITERATION_CAP}, {@code ERROR} or
 *                    {@code LOOP_DETECTED}
 * @param parentSessionId for a sub-agent, the session whose {@code task} call started it; null for every other
 */
@JsonInclude(JsonInclude.Include.ALWAYS)
public record SessionListEntry(String id, String title, String owner, String status, Instant createdAt, Instant updatedAt,
                               long lastSeq, Usage usage, String lastOutcome, String parentSessionId) {

    public static SessionListEntry of(SessionState s) {
        return new SessionListEntry(s.sessionId(), s.title(), s.userId(), s.status().name(), s.createdAt(),
                s.updatedAt(), s.lastSeq(), Usage.of(s.usage()), s.lastOutcome() == null ? null : s.lastOutcome().name(),
                s.subAgents().parent() == null ? null : s.subAgents().parent().parentSessionId());
    }
}
