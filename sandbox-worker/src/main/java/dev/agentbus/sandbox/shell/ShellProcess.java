package dev.agentbus.sandbox.shell;

import java.io.InputStream;
import java.io.OutputStream;
import java.util.OptionalInt;

/**
 * A running {@code /bin/sh} that a {@link PersistentShell} talks to: its stdin, and its stdout and stderr merged
 * into one stream. Each backend starts it its own way (a bubblewrap child process, a {@code docker exec} attached
 * over the engine's API, a host process).
 */
public interface ShellProcess {
    /** Where commands are written. */
    OutputStream stdin();

    /** stdout and stderr, in arrival order; ends when the shell is gone. */
    InputStream output();

    /** The shell's exit status once it has ended and the backend knows it. */
    OptionalInt exitStatus();

    /** Ends the shell process (not necessarily what it started: the backend's kill does that). */
    void destroy();
}
