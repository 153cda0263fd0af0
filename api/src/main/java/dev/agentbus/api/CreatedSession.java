package dev.agentbus.api;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * {@code POST /api/v1/sessions}: the new session's id; {@code status} is {@code pending} (with 202) when no
 * orchestrator recorded the session within the wait, and absent otherwise.
 */
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public record CreatedSession(String id, String status) {
    public static CreatedSession created(String id) {
        return new CreatedSession(id, null);
    }

    public static CreatedSession pending(String id) {
        return new CreatedSession(id, Pending.STATUS);
    }

    /** Not a field of the answer: whether the gateway answered before the work was recorded. */
    @JsonIgnore
    public boolean isPending() {
        return Pending.STATUS.equals(status);
    }
}
