package dev.agentbus.sandbox.tools;

import dev.agentbus.sandbox.commands.StructuredCommand;
import dev.agentbus.sandbox.safety.CommandSafety;
import dev.agentbus.sandbox.sandboxing.CommandResult;
import dev.agentbus.sandbox.sandboxing.SandboxException;
import dev.agentbus.sandbox.workspace.PathRejectedException;
import dev.agentbus.sandbox.workspace.SymbolicLinkException;
import dev.agentbus.sandbox.workspace.WorkspaceDir;
import dev.agentbus.sandbox.workspace.WorkspacePaths;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code run_command {command, args?, cwd?, timeout_seconds?, dry_run?}}: the structured command mode. One program
 * with explicit arguments runs inside the sandbox with no shell at all; {@link StructuredCommand} checks the shape,
 * the allow and deny lists and the safety layer first, and refuses with the reason. {@code dry_run} does every check
 * and says what would run, without running it.
 *
 * <p>Results read like {@code shell}'s: the output, then {@code exit code: N}; a non-zero exit is still a successful
 * call (the model asked for the information), a time-out is not.
 */
final class RunCommandTool implements Tool {
    private final SandboxSettings settings;

    RunCommandTool(SandboxSettings settings) {
        this.settings = settings;
    }

    @Override
    public ToolOutcome run(Args args, ToolContext ctx)
            throws ToolFailure, ToolRefusal, PathRejectedException, SandboxException, InterruptedException {
        WorkspacePaths workspace = ctx.workspace();
        String command = args.requiredString("command").strip();
        List<String> arguments = args.optionalStringList("args").orElse(List.of());
        String cwd = args.optionalString("cwd").orElse(".");
        String shown = workspace.display(workspace.resolve(cwd));
        try (WorkspaceDir checked = workspace.directory(cwd)) {
            // a directory of the workspace, reached through handles
        } catch (SymbolicLinkException link) {
            // the program runs in the sandbox, where a link leads nowhere but the sandbox's own files
        } catch (IOException e) {
            throw new ToolFailure("cwd is not a directory: " + shown);
        }
        String workdir = shown.equals(".") ? CommandSafety.SANDBOX_WORKSPACE : CommandSafety.SANDBOX_WORKSPACE + "/"
                + shown;
        long asked = args.optionalInt("timeout_seconds").map(Integer::longValue)
                .orElse(settings.shellTimeoutDefault().toSeconds());
        long seconds = Math.clamp(asked, SandboxSettings.MIN_SHELL_TIMEOUT.toSeconds(),
                settings.shellTimeoutMax().toSeconds());
        CommandSafety safety = new CommandSafety(settings.safety(), List.of(workspace.root().toString()));
        var refusal = StructuredCommand.check(command, arguments, settings.commands(), safety, workdir);
        if (refusal.isPresent()) {
            throw new ToolRefusal(refusal.get());
        }
        List<String> argv = new ArrayList<>(arguments.size() + 1);
        argv.add(command);
        argv.addAll(arguments);
        if (args.optionalBoolean("dry_run", false)) {
            return ToolOutcome.success("dry run, nothing was run: " + render(argv) + " would run in " + workdir
                    + " with a time-out of " + seconds + " s; it passes the allow and deny lists and the safety "
                    + "checks\n");
        }
        CommandResult result = Programs.exec(ctx, argv, workdir, Duration.ofSeconds(seconds));
        String text = Programs.text(result);
        if (result.timedOut()) {
            return new ToolOutcome(false, text, "command timed out after " + seconds + " s; it and every process "
                    + "it started were killed", null, result.truncated());
        }
        text += "exit code: " + result.exitCode();
        if (asked != seconds) {
            text += "\n[timeout_seconds " + asked + " was clamped to " + seconds + "]";
        }
        return new ToolOutcome(true, text, null, null, result.truncated());
    }

    /** The argv as the model would write it, each word quoted when it needs to be, for the dry run's answer. */
    static String render(List<String> argv) {
        List<String> words = new ArrayList<>();
        for (String w : argv) {
            words.add(w.matches("[A-Za-z0-9._/=:,+@%-]+") ? w : "'" + w.replace("'", "'\\''") + "'");
        }
        return String.join(" ", words);
    }
}
