package dev.agentbus.sandbox.sandboxing;

import dev.agentbus.sandbox.shell.ShellProcess;

/**
 * One backend's handle on one sandbox: it can start a shell inside, kill everything running inside, and free the
 * sandbox. {@link ShellSandbox} builds the persistent shell, its state and its time-outs on top, the same way for
 * every backend.
 */
interface SandboxHost extends AutoCloseable {
    /** {@code docker}, {@code bubblewrap}, {@code host} or {@code kubernetes}. */
    String backend();

    /**
     * The path the shell sees for the workspace: {@code /workspace} inside a real sandbox, the host directory in
     * unsafe host mode. Recorded states always say {@code /workspace}.
     */
    String workspacePath();

    /** Starts {@code /bin/sh} inside, reading stdin, in the workspace, with the sandbox's fixed environment. */
    ShellProcess startShell() throws SandboxException;

    /** Kills every process inside (the shell, what it started, daemons); a shell can be started again after. */
    void killAll() throws SandboxException;

    /**
     * The workspace directory was renamed to {@code workspace} (a pooled sandbox handed to a session). Running
     * processes follow the directory by themselves; a backend that mounts it again later must use the new path.
     */
    void moved(java.nio.file.Path workspace);

    /** Kills everything and frees the sandbox. Idempotent. */
    @Override
    void close();
}
