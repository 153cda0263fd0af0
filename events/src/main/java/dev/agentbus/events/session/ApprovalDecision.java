package dev.agentbus.events.session;

/** How a pending approval was decided ({@code approval.decided.v1}). */
public enum ApprovalDecision {
    /** A person allowed this one call. */
    APPROVED,
    /** A person refused the call; the model is told, with the person's note. */
    DENIED,
    /** A person allowed the call and every later call of the same tool in this session. */
    ALWAYS,
    /** Nobody decided within the approval time-out; it counts as denied. Only the scheduler's time-out gives it. */
    EXPIRED;

    /** Whether the call runs. */
    public boolean allows() {
        return this == APPROVED || this == ALWAYS;
    }
}
