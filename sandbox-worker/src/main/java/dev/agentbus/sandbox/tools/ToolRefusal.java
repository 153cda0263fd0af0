package dev.agentbus.sandbox.tools;

/**
 * The safety layer will not let a call run (a blocked command, a path outside the workspace, a program the
 * structured mode does not allow). {@link ToolExecutor} turns it into {@code ToolOutcome.refused(reason)}, which is
 * recorded as {@code tool_call.completed.v1} with {@code refusal} set: a refusal is part of the log, not a crash.
 */
final class ToolRefusal extends Exception {
    ToolRefusal(String reason) {
        super(reason);
    }
}
