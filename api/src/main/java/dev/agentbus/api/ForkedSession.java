package dev.agentbus.api;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * {@code POST .../fork} and {@code POST /api/v1/sessions/import}: the new session, where it came from, and the
 * workspace checkpoint it starts from (absent when none). {@code status} is {@code pending} (with 202) when no
 * orchestrator recorded the new session within the wait.
 */
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public record ForkedSession(String id, String fromSessionId, long atSeq, String checkpoint, String status) {
    public ForkedSession pending() {
        return new ForkedSession(id, fromSessionId, atSeq, checkpoint, Pending.STATUS);
    }

    /** Not a field of the answer: whether the gateway answered before the work was recorded. */
    @JsonIgnore
    public boolean isPending() {
        return Pending.STATUS.equals(status);
    }
}
