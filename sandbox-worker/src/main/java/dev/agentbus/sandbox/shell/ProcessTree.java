package dev.agentbus.sandbox.shell;

import java.io.IOException;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * Remembers every process a command started and kills them all.
 *
 * <p>Killing only the direct child is not enough: {@code sh -c "sleep 100 & sleep 100"} leaves a {@code sleep}
 * that keeps the output pipe open and runs on. Processes whose parent died are re-parented and no longer show up
 * as descendants, so three nets are used:
 * <ol>
 *   <li>inside bubblewrap, bwrap is pid 1 of the sandbox's pid namespace and every process in it dies with it;</li>
 *   <li>on the host (unsafe mode) the command runs under {@code setsid}, so it leads its own process group, and
 *       the whole group is killed at the end; this catches orphans that were never seen as descendants;</li>
 *   <li>in both modes the tree is sampled while the command runs ({@link #sample()}) and everything ever seen is
 *       killed too.</li>
 * </ol>
 * Only a process that both escapes the group (calls {@code setsid} itself, as daemons do) and dies off the
 * sampled tree between two samples survives, and only in unsafe host mode.
 */
final class ProcessTree {
    private final ProcessHandle root;
    private final boolean ownProcessGroup;
    private final Set<ProcessHandle> seen = new LinkedHashSet<>();

    /**
     * @param ownProcessGroup the root was started through {@code setsid}, so its pid is also its process group id
     */
    ProcessTree(ProcessHandle root, boolean ownProcessGroup) {
        this.root = root;
        this.ownProcessGroup = ownProcessGroup;
    }

    /** Records the current descendants. {@link ProcessHandle} equality includes the start time, so pid reuse is safe. */
    void sample() {
        root.descendants().forEach(seen::add);
    }

    /** SIGKILLs the root, its process group, all current descendants and everything seen before. */
    void killAll() {
        // A few rounds: a process may fork between our listing it and our killing its parent.
        for (int round = 0; round < 3; round++) {
            sample();
            root.destroyForcibly();
            killGroup();
            seen.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
        }
    }

    /** After the command ended: kills what it started and left behind (background jobs), so nothing outlives it. */
    void killLeftovers() {
        killGroup();
        seen.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
    }

    /**
     * Java cannot signal a process group, so the shell's {@code kill} does it ({@code -9 -pgid}: dash's builtin
     * rejects the {@code -s KILL --} spelling). The group id stays reserved while
     * any member lives, so {@code -pid} cannot hit an unrelated group; when the group is already empty the kill
     * fails harmlessly.
     */
    private void killGroup() {
        if (!ownProcessGroup) {
            return;
        }
        try {
            Process kill = new ProcessBuilder("/bin/sh", "-c", "kill -9 -" + root.pid() + " 2>/dev/null")
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .start();
            kill.waitFor(2, TimeUnit.SECONDS);
        } catch (IOException e) {
            // Nothing better to do: the sampled processes are still killed by the caller.
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
