package dev.agentbus.events.session;

/** How a turn ended. The CLI's exit code is derived from it (see docs/cli.md). */
public enum TurnOutcome {
    /** The model gave a final answer. */
    COMPLETED,
    /** A person cancelled the turn. */
    CANCELLED,
    /** The turn reached the configured maximum number of model calls. */
    ITERATION_CAP,
    /** The model server failed after all retries, or another unrecoverable error. */
    ERROR,
    /** A loop guard saw the turn going round in circles again after it had warned the model (loop.warned.v1). */
    LOOP_DETECTED
}
