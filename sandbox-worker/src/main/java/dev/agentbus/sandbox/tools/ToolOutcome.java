package dev.agentbus.sandbox.tools;

import dev.agentbus.events.session.ShellState;

/**
 * The result of one tool call, shaped like the {@code tool_call.completed.v1} event it becomes.
 *
 * @param ok        the tool did what was asked. A shell command that ran to completion is ok even with a non-zero
 *                  exit code (the code is in {@code output}); it is not ok when it timed out or could not start
 * @param output    the text for the model (already capped); on failure it may still hold partial output, e.g. what a
 *                  timed-out command printed
 * @param error     on failure, a message for the model and the user saying what was wrong; null when ok
 * @param diff      a unified diff of the file change for {@code edit} and {@code write}; null for other tools
 * @param truncated output (or diff) was cut to the cap
 * @param shell     the persistent shell's state after a command; null for tools that do not run one
 * @param refusal   why the safety layer refused the call without running it; null when it ran
 */
public record ToolOutcome(boolean ok, String output, String error, String diff, boolean truncated,
                          ShellState shell, String refusal) {

    public ToolOutcome(boolean ok, String output, String error, String diff, boolean truncated) {
        this(ok, output, error, diff, truncated, null, null);
    }

    /** A call the safety layer would not run; the reason is both the error the model reads and the recorded refusal. */
    public static ToolOutcome refused(String reason) {
        return new ToolOutcome(false, "", "refused: " + reason, null, false, null, reason);
    }

    public static ToolOutcome success(String output) {
        return new ToolOutcome(true, output, null, null, false);
    }

    public static ToolOutcome failure(String error) {
        return new ToolOutcome(false, "", error, null, false);
    }

    /** The single text to hand the model: the output, or the error followed by any partial output. */
    public String forModel() {
        if (ok) {
            return output;
        }
        return "error: " + error + (output == null || output.isEmpty() ? "" : "\n" + output);
    }
}
