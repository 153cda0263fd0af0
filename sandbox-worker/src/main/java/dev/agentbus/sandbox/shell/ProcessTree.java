package dev.agentbus.sandbox.shell;

import java.util.LinkedHashSet;
import java.util.Set;

/**
 * Remembers every process a command started and kills them all.
 *
 * <p>Killing only the direct child is not enough: {@code sh -c "sleep 100 & sleep 100"} leaves a {@code sleep}
 * that keeps the output pipe open and runs on. Processes whose parent died are re-parented and no longer show up
 * as descendants, so the tree is sampled while the command runs ({@link #sample()}) and everything ever seen is
 * killed at the end. Inside bubblewrap this is belt and braces: bwrap is pid 1 of the sandbox's pid namespace and
 * every process in it dies with it. On the host (unsafe mode) the sampling is what catches most orphans.
 */
final class ProcessTree {
    private final ProcessHandle root;
    private final Set<ProcessHandle> seen = new LinkedHashSet<>();

    ProcessTree(ProcessHandle root) {
        this.root = root;
    }

    /** Records the current descendants. {@link ProcessHandle} equality includes the start time, so pid reuse is safe. */
    void sample() {
        root.descendants().forEach(seen::add);
    }

    /** SIGKILLs the root, all current descendants and all processes seen before that are still alive. */
    void killAll() {
        // A few rounds: a process may fork between our listing it and our killing its parent.
        for (int round = 0; round < 3; round++) {
            sample();
            root.destroyForcibly();
            seen.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
        }
    }

    /** Kills only what was started by the command and outlived it (background jobs), leaving nothing behind. */
    void killLeftovers() {
        seen.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
    }
}
