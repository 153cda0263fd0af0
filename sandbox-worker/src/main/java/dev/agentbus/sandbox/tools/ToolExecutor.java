package dev.agentbus.sandbox.tools;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentbus.sandbox.checkpointing.Checkpoints;
import dev.agentbus.sandbox.safety.CommandSafety;
import dev.agentbus.sandbox.sandboxing.SandboxException;
import dev.agentbus.sandbox.sandboxing.SandboxProvider;
import dev.agentbus.sandbox.sandboxing.SandboxSpec;
import dev.agentbus.sandbox.workspace.PathRejectedException;
import dev.agentbus.sandbox.workspace.SymbolicLinkException;
import dev.agentbus.sandbox.workspace.WorkspacePaths;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Runs the sandbox tools (the model's, and the user-only upload, download and rewind) in one session's workspace.
 * The one entry point for the worker's Kafka-facing code: it hands in the tool name and JSON arguments from a
 * {@code tool_call.requested.v1} event and gets back a {@link ToolOutcome} to record.
 *
 * <p>Before any tool runs, the command safety layer ({@code safety/CommandSafety}) reads the command lines of
 * {@code shell}, {@code tmux_new} and {@code vm_input}; a blocked command or a path outside the workspace is refused
 * with {@link ToolOutcome#refused}, which the log records as a refusal. So are the file tools' path escapes.
 *
 * <p>{@link #execute} never throws: an unknown tool, a bad argument, a path outside the workspace, a missing file or
 * an I/O error all come back as {@code ok=false} with a message the model can act on (invariant: a rejection is an
 * event, not an exception). Messages name paths relative to the workspace, never the host location.
 *
 * <p>Thread-safe; calls for different workspaces may run in parallel. Calls for the same workspace may race each
 * other or a program in the sandbox without reaching outside it: every file operation goes through directory handles
 * that never follow a link (see {@link WorkspacePaths}); the worker still runs one session's calls in order.
 */
public final class ToolExecutor {
    /**
     * The tool names, fixed: they are the contract with the model and with people. The registry is built from
     * {@code ToolCatalog}'s sandbox tools, user-only ones included ({@link ToolRegistry}).
     */
    public static final List<String> TOOL_NAMES = ToolRegistry.names();

    /**
     * Tools whose argument is a command line that a shell will run: {@code shell} itself, the start command of a
     * tmux window, and text typed into a pane (which may be running a shell). The safety layer reads these before
     * the tool runs; {@code run_command} applies it to its argv itself.
     */
    private static final Map<String, String> COMMAND_LINE_ARGUMENT = Map.of("shell", "command",
            "tmux_new", "command", "vm_input", "data");

    /** Output beyond the cap that a tool may add for its own notes before the generic cap cuts. */
    private static final int NOTE_SLACK_BYTES = 1024;

    private static final Logger LOG = LoggerFactory.getLogger(ToolExecutor.class);

    private final SandboxSettings settings;
    private final SandboxProvider sandboxes;
    private final Map<String, Tool> tools;

    /**
     * An executor without workspace checkpoints: {@code rewind} fails with a message saying so. The worker's runner
     * gives it its checkpoints with {@link #withCheckpoints}.
     *
     * @param sandboxes where tools that run programs get the session's sandbox (a worker without a backend has one
     *                  that refuses, saying why)
     */
    public ToolExecutor(SandboxSettings settings, SandboxProvider sandboxes) {
        this(settings, sandboxes, null);
    }

    private ToolExecutor(SandboxSettings settings, SandboxProvider sandboxes, Checkpoints checkpoints) {
        this.settings = settings;
        this.sandboxes = java.util.Objects.requireNonNull(sandboxes, "sandboxes");
        this.tools = ToolRegistry.build(new ToolRegistry.Parts(settings, checkpoints));
    }

    /** The same executor whose {@code rewind} restores these checkpoints. */
    public ToolExecutor withCheckpoints(Checkpoints checkpoints) {
        return new ToolExecutor(settings, sandboxes, checkpoints);
    }

    /**
     * Destroys the session's sandbox if this worker has one (the session moved to another worker); the next call
     * here builds a new one from the state recorded in the log.
     */
    public void releaseSandbox(String userId, String sessionId) {
        sandboxes.release(new SandboxSpec(userId, sessionId, null, null));
    }

    public SandboxSettings settings() {
        return settings;
    }

    /**
     * Runs one tool call.
     *
     * @param toolName      one of {@link #TOOL_NAMES}
     * @param arguments     the call's JSON object of arguments (null is treated as no arguments)
     * @param workspaceRoot the session's workspace directory; must exist
     * @param liveOutput    receives shell output text as it is produced (for session-stream), called from a reader
     *                      thread, never more than the capped output; may be null. A listener that throws is
     *                      dropped for the rest of the command, the command goes on
     */
    public ToolOutcome execute(String toolName, JsonNode arguments, Path workspaceRoot, Consumer<String> liveOutput) {
        return execute(toolName, arguments, new SandboxSpec("local", "local", workspaceRoot, null), liveOutput);
    }

    /**
     * Runs one tool call for a session: {@code spec} says whose sandbox a tool that runs programs gets, its
     * workspace, and the shell state to restore if the sandbox must be built afresh.
     */
    public ToolOutcome execute(String toolName, JsonNode arguments, SandboxSpec spec, Consumer<String> liveOutput) {
        return execute(toolName, arguments, spec, false, liveOutput);
    }

    /**
     * Runs one tool call for a session, saying whether a person runs it directly ({@code byUser}: a user tool such
     * as {@code rewind}, which refuses a call by the model).
     */
    public ToolOutcome execute(String toolName, JsonNode arguments, SandboxSpec spec, boolean byUser,
                               Consumer<String> liveOutput) {
        Path workspaceRoot = spec == null ? null : spec.workspace();
        Tool tool = toolName == null ? null : tools.get(toolName);
        if (tool == null) {
            return ToolOutcome.failure("unknown tool: " + toolName + " (available: " + String.join(", ", TOOL_NAMES)
                    + ")");
        }
        if (workspaceRoot == null || !Files.isDirectory(workspaceRoot)) {
            return ToolOutcome.failure("the session's workspace directory does not exist");
        }
        WorkspacePaths workspace = null;
        try {
            workspace = WorkspacePaths.open(workspaceRoot);
            Optional<String> refusal = screen(toolName, arguments, spec, workspace);
            if (refusal.isPresent()) {
                return ToolOutcome.refused(refusal.get());
            }
            ToolOutcome outcome = tool.run(Args.of(arguments), new ToolContext(workspace, spec, sandboxes, liveOutput, byUser));
            return tool.limitsItsOwnOutput() ? outcome : capped(outcome);
        } catch (ToolFailure e) {
            return ToolOutcome.failure(e.getMessage());
        } catch (ToolRefusal | PathRejectedException e) {
            // The workspace-only path policy of the file tools is part of the safety layer: a recorded refusal.
            return ToolOutcome.refused(e.getMessage());
        } catch (SymbolicLinkException e) {
            // So is never following a link (a link checked now may point at the host an instant later).
            return ToolOutcome.refused(e.getMessage());
        } catch (SandboxException e) {
            return ToolOutcome.failure("the sandbox is not available: " + e.getMessage());
        } catch (IOException e) {
            return ToolOutcome.failure(describe(e, workspace));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // the worker is shutting down; let it see that
            return ToolOutcome.failure("the tool call was interrupted (worker shutting down)");
        } catch (RuntimeException | StackOverflowError e) {
            LOG.error("tool {} failed unexpectedly", toolName, e);
            return ToolOutcome.failure("internal error in tool " + toolName + ": " + e);
        }
    }

    /**
     * The command safety layer, before any tool runs: a command line a shell would run is checked against the
     * blocked commands and the workspace-only path policy, from the shell's working directory as last recorded.
     */
    private Optional<String> screen(String toolName, JsonNode arguments, SandboxSpec spec, WorkspacePaths workspace) {
        String argument = COMMAND_LINE_ARGUMENT.get(toolName);
        JsonNode line = argument == null || arguments == null ? null : arguments.get(argument);
        if (line == null || !line.isTextual()) {
            return Optional.empty(); // nothing to check; the tool reports a missing or mistyped argument itself
        }
        String cwd = spec.restore() == null ? CommandSafety.SANDBOX_WORKSPACE : spec.restore().cwd();
        return new CommandSafety(settings.safety(), List.of(workspace.root().toString()))
                .checkShellLine(line.asText(), cwd);
    }

    /** The safety net under every tool's own limits: nothing larger than the cap reaches the log. */
    private ToolOutcome capped(ToolOutcome outcome) {
        int cap = settings.outputCapBytes();
        String output = outcome.output() == null ? "" : outcome.output();
        boolean cutOutput = TextFiles.utf8Length(output) > cap + NOTE_SLACK_BYTES;
        boolean cutDiff = outcome.diff() != null && TextFiles.utf8Length(outcome.diff()) > cap;
        if (!cutOutput && !cutDiff) {
            return outcome;
        }
        return new ToolOutcome(outcome.ok(), cutOutput ? TextFiles.cap(output, cap) : output, outcome.error(),
                cutDiff ? TextFiles.cap(outcome.diff(), cap) : outcome.diff(), true, outcome.shell(), outcome.refusal(),
                outcome.changedPaths());
    }

    /** Turns NIO's exceptions (whose messages are bare host paths) into sentences with workspace paths. */
    private static String describe(IOException e, WorkspacePaths workspace) {
        String file = e instanceof FileSystemException fse && fse.getFile() != null ? fse.getFile() : null;
        String where = workspace == null || file == null ? "" : workspace.scrub(file);
        return switch (e) {
            case NoSuchFileException x -> "no such file or directory: " + where;
            case AccessDeniedException x -> "permission denied: " + where;
            case FileAlreadyExistsException x -> "a file is in the way: " + where + " already exists";
            case NotDirectoryException x -> "not a directory: " + where;
            case DirectoryNotEmptyException x -> "directory not empty: " + where;
            default -> "I/O error: " + (workspace == null ? String.valueOf(e.getMessage())
                    : workspace.scrub(e.getMessage()));
        };
    }
}
