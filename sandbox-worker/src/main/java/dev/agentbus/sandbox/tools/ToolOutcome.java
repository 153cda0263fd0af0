package dev.agentbus.sandbox.tools;

import dev.agentbus.events.session.ShellState;

import java.nio.file.Path;
import java.util.List;

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
 * @param changedPaths the real workspace paths the call created, changed or deleted (a directory standing for
 *                  everything under it), when the tool knows them exactly: the file tools, on success. Null when it
 *                  cannot know (it ran a program, or failed midway). The workspace checkpoint after the call looks
 *                  only at these paths, or at the whole workspace when null; it is not part of the recorded result
 */
public record ToolOutcome(boolean ok, String output, String error, String diff, boolean truncated,
                          ShellState shell, String refusal, List<Path> changedPaths) {

    public ToolOutcome {
        changedPaths = changedPaths == null ? null : List.copyOf(changedPaths);
    }

    public ToolOutcome(boolean ok, String output, String error, String diff, boolean truncated, ShellState shell,
                       String refusal) {
        this(ok, output, error, diff, truncated, shell, refusal, null);
    }

    public ToolOutcome(boolean ok, String output, String error, String diff, boolean truncated) {
        this(ok, output, error, diff, truncated, null, null);
    }

    /** The same outcome, saying that these paths (and nothing else) are what the call changed. */
    public ToolOutcome changing(Path... paths) {
        return new ToolOutcome(ok, output, error, diff, truncated, shell, refusal, List.of(paths));
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
