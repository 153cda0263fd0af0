package dev.agentbus.sandbox.tools;

import dev.agentbus.sandbox.sandboxing.CommandResult;
import dev.agentbus.sandbox.sandboxing.SandboxException;

import java.time.Duration;

/**
 * {@code shell {command, timeout_seconds?}}: runs a command line in the session's persistent shell, inside its
 * sandbox (Docker or bubblewrap, see docs/sandbox.md). {@code cd} and {@code export} keep their effect on later
 * calls; the working directory and exported variables after the command go into the outcome, and so into the
 * log, so a sandbox built afresh (another worker, a reaped sandbox) goes on from there.
 *
 * <p>Exit codes: a command that ran to completion is a successful tool call whatever its exit code, and the output
 * always ends with {@code exit code: N}. A failing build or test run is information the model asked for, not a
 * broken tool call; it reads the code from the output. The call is a failure (ok=false) only when the command
 * could not run as asked: time-out (the output printed until then is kept), no sandbox backend, a sandbox that
 * would not start.
 *
 * <p>Time-outs: {@code timeout_seconds} is clamped to [1, shellTimeoutMax]; a clamp is mentioned in the output so
 * the model does not believe it got what it asked for. A command past its time-out is killed together with
 * everything else running in the sandbox (background jobs, a tmux server), and the shell is set up again in the
 * directory and with the variables it had before the command.
 */
final class ShellTool implements Tool {
    private final SandboxSettings settings;

    ShellTool(SandboxSettings settings) {
        this.settings = settings;
    }

    @Override
    public ToolOutcome run(Args args, ToolContext ctx) throws ToolFailure, InterruptedException, SandboxException {
        String command = args.requiredString("command");
        if (command.isBlank()) {
            throw new ToolFailure("command must not be empty");
        }
        if (command.indexOf('\0') >= 0) {
            throw new ToolFailure("command must not contain a NUL character");
        }
        long asked = args.optionalInt("timeout_seconds").map(Integer::longValue)
                .orElse(settings.shellTimeoutDefault().toSeconds());
        long seconds = Math.clamp(asked, SandboxSettings.MIN_SHELL_TIMEOUT.toSeconds(),
                settings.shellTimeoutMax().toSeconds());
        CommandResult result = ctx.sandbox().shell(command, Duration.ofSeconds(seconds), ctx.liveOutput());
        String text = result.output();
        if (result.truncated()) {
            text += TextFiles.truncationMarker(result.omittedBytes());
        }
        if (!text.isEmpty() && !text.endsWith("\n")) {
            text += "\n";
        }
        if (result.timedOut()) {
            return new ToolOutcome(false, text, "command timed out after " + seconds + " s; it and every process it "
                    + "started were killed", null, result.truncated(), result.shell(), null);
        }
        text += "exit code: " + result.exitCode();
        if (asked != seconds) {
            text += "\n[timeout_seconds " + asked + " was clamped to " + seconds + "]";
        }
        return new ToolOutcome(true, text, null, null, result.truncated(), result.shell(), null);
    }
}
