package dev.agentbus.events.planning;

/** Where a plan stands. */
public enum PlanStatus {
    /** Waiting for the user's approval (plan-first mode): no tool other than the planning tools runs meanwhile. */
    PROPOSED,
    /** Being worked through, step by step. */
    ACTIVE,
    /** Every step is done or skipped. */
    COMPLETED,
    /** Given up: by the model ({@code plan_abort}), or a proposed plan whose turn ended before anyone decided it. */
    ABORTED,
    /** The user did not approve it (or nobody did before its approval expired). */
    REJECTED
}
