package dev.agentbus.sandbox.tools;

import dev.agentbus.sandbox.shell.ShellResult;
import dev.agentbus.sandbox.shell.ShellRunner;
import dev.agentbus.sandbox.shell.ShellUnavailableException;
import dev.agentbus.sandbox.workspace.WorkspacePaths;

import java.time.Duration;
import java.util.function.Consumer;

/**
 * {@code shell {command, timeout_seconds?}}: {@code /bin/sh -c command} in the sandbox, working directory
 * {@code /workspace}.
 *
 * <p>Exit codes: a command that ran to completion is a successful tool call whatever its exit code, and the output
 * always ends with {@code exit code: N}. A failing build or test run is information the model asked for, not a
 * broken tool call; it reads the code from the output. The call is a failure (ok=false) only when the command
 * could not run as asked: time-out (the output printed until then is kept), bubblewrap missing or unable to start.
 *
 * <p>Time-outs: {@code timeout_seconds} is clamped to [1, shellTimeoutMax]; a clamp is mentioned in the output so
 * the model does not believe it got what it asked for.
 */
final class ShellTool implements Tool {
    private final SandboxSettings settings;
    private final ShellRunner runner;

    ShellTool(SandboxSettings settings, ShellRunner runner) {
        this.settings = settings;
        this.runner = runner;
    }

    @Override
    public ToolOutcome run(Args args, ToolContext ctx)
            throws ToolFailure, InterruptedException {
        WorkspacePaths workspace = ctx.workspace();
        Consumer<String> liveOutput = ctx.liveOutput();
        String command = args.requiredString("command");
        if (command.isBlank()) {
            throw new ToolFailure("command must not be empty");
        }
        long asked = args.optionalInt("timeout_seconds").map(Integer::longValue)
                .orElse(settings.shellTimeoutDefault().toSeconds());
        long seconds = Math.clamp(asked, SandboxSettings.MIN_SHELL_TIMEOUT.toSeconds(),
                settings.shellTimeoutMax().toSeconds());
        ShellResult result;
        try {
            result = runner.run(command, Duration.ofSeconds(seconds), workspace.root(), liveOutput);
        } catch (ShellUnavailableException e) {
            throw new ToolFailure(e.getMessage());
        }
        String text = result.output();
        if (result.truncated()) {
            text += TextFiles.truncationMarker(result.omittedBytes());
        }
        if (!text.isEmpty() && !text.endsWith("\n")) {
            text += "\n";
        }
        if (result.timedOut()) {
            return new ToolOutcome(false, text, "command timed out after " + seconds + " s; it and every process it "
                    + "started were killed", null, result.truncated());
        }
        if (!runner.unsafeHost() && result.exitCode() != 0 && result.output().startsWith("bwrap: ")) {
            // bwrap reports its own set-up failures (no user namespaces, a missing mount source) this way; the
            // command never ran, so this must not look like the command's own output.
            throw new ToolFailure("bubblewrap could not start the sandbox: "
                    + result.output().lines().findFirst().orElse("") + " (the command did not run)");
        }
        text += "exit code: " + result.exitCode();
        if (asked != seconds) {
            text += "\n[timeout_seconds " + asked + " was clamped to " + seconds + "]";
        }
        return new ToolOutcome(true, text, null, null, result.truncated());
    }
}
