package dev.agentbus.sandbox.sandboxing;

import dev.agentbus.events.session.ShellState;

import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;

/**
 * One session's sandbox: a persistent shell and a way to run a program without a shell, both confined to the
 * session's workspace (seen inside as {@code /workspace}). Backends: Docker, bubblewrap, and the explicit unsafe
 * host mode. Tools get one through {@link SandboxProvider}; they never start processes of their own.
 */
public interface Sandbox extends AutoCloseable {

    /** Which backend runs it: {@code docker}, {@code bubblewrap} or {@code host}. */
    String backend();

    /**
     * Runs a command line in the session's persistent shell, so {@code cd} and {@code export} keep their effect on
     * later calls. stdin is closed. On time-out the command and everything it started are killed and the shell is
     * set up again in the state it had before the command.
     *
     * @param liveOutput receives output text as it is produced (may be null)
     */
    CommandResult shell(String command, Duration timeout, Consumer<String> liveOutput)
            throws SandboxException, InterruptedException;

    /**
     * Runs {@code argv} directly, with no shell (no pipes, redirects or expansion), in {@code workdir} (a path
     * inside the sandbox such as {@code /workspace/src}). Used by git, tmux and the structured command mode. It does
     * not change the shell's state.
     */
    CommandResult exec(List<String> argv, String workdir, Duration timeout, Consumer<String> liveOutput)
            throws SandboxException, InterruptedException;

    /** The shell's working directory and exported variables now. */
    ShellState state();

    /** Stops every process of the sandbox and frees it. Idempotent. */
    @Override
    void close();
}
