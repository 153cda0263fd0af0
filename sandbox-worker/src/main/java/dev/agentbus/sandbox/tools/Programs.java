package dev.agentbus.sandbox.tools;

import dev.agentbus.sandbox.sandboxing.CommandResult;
import dev.agentbus.sandbox.sandboxing.SandboxException;

import java.time.Duration;
import java.util.List;

/** Running a program in the session's sandbox without a shell, for the git, tmux and structured-command tools. */
final class Programs {
    private Programs() {
    }

    /** Runs {@code argv} in {@code workdir} (a path inside the sandbox), with live output to the stream topic. */
    static CommandResult exec(ToolContext ctx, List<String> argv, String workdir, Duration timeout)
            throws SandboxException, InterruptedException {
        return ctx.sandbox().exec(argv, workdir, timeout, ctx.liveOutput());
    }

    /** Runs {@code argv} without streaming its output (for short queries whose output is shaped before use). */
    static CommandResult quiet(ToolContext ctx, List<String> argv, String workdir, Duration timeout)
            throws SandboxException, InterruptedException {
        return ctx.sandbox().exec(argv, workdir, timeout, null);
    }

    /** The output as the model sees it: with the truncation marker when cut, and ending with a newline. */
    static String text(CommandResult result) {
        String text = result.output() == null ? "" : result.output();
        if (result.truncated()) {
            text += TextFiles.truncationMarker(result.omittedBytes());
        }
        if (!text.isEmpty() && !text.endsWith("\n")) {
            text += "\n";
        }
        return text;
    }

    /** The first non-blank line of the output, for an error message. */
    static String firstLine(CommandResult result) {
        return text(result).lines().filter(l -> !l.isBlank()).findFirst().orElse("(no output)").strip();
    }
}
