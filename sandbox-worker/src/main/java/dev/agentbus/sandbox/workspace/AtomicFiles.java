package dev.agentbus.sandbox.workspace;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What every writer of workspace files shares: the suffix of temporary files and whether the worker runs as root.
 *
 * <p>The writing itself is {@link WorkspaceDir#writeAtomically}: a temporary file in the same directory handle,
 * flushed, then renamed over the target, so a reader (or the file after a crash) sees the old content or the new one,
 * never half of it, and a worker that dies mid-write leaves at most a stray {@code .*.agentbus-tmp} file.
 */
public final class AtomicFiles {
    /** Suffix of temporary files, so a leftover from a crash is recognisable. */
    public static final String TEMP_SUFFIX = ".agentbus-tmp";

    private AtomicFiles() {
    }

    private static final boolean WORKER_IS_ROOT = uidOfThisProcess() == 0;

    /** Whether this worker runs as root (read once): then what it makes must be handed to the sandbox's user. */
    public static boolean workerIsRoot() {
        return WORKER_IS_ROOT;
    }

    private static int uidOfThisProcess() {
        try {
            return (Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid");
        } catch (IOException | UnsupportedOperationException | ClassCastException e) {
            return -1;
        }
    }

}
