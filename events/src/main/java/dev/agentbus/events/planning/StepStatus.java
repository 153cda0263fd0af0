package dev.agentbus.events.planning;

/** Where one step of a plan stands. */
public enum StepStatus {
    PENDING,
    /** Done, with the evidence the model gave. */
    DONE,
    /** Passed over with {@code plan_advance}, with the reason the model gave. */
    SKIPPED
}
