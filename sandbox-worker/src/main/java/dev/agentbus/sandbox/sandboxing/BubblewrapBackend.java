package dev.agentbus.sandbox.sandboxing;

import dev.agentbus.sandbox.shell.Bubblewrap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.file.Path;
import java.util.Optional;

/**
 * bubblewrap sandboxes ({@link BubblewrapHost}), limited by a control group each when the worker can create them.
 *
 * @param bwrap   the bubblewrap executable
 * @param cgroups this worker's control groups; empty when the cgroup tree is not writable (no process limit then)
 */
record BubblewrapBackend(Path bwrap, SandboxConfig config, Optional<Cgroups> cgroups) implements Backend {
    private static final Logger LOG = LoggerFactory.getLogger(BubblewrapBackend.class);
    private static final Path CGROUP_MOUNT = Path.of("/sys/fs/cgroup");

    /** bubblewrap if it is installed, with control groups if they can be created. */
    static BackendChoice.Probe probe(SandboxConfig config) {
        Optional<Path> bwrap = Bubblewrap.find(config.bwrapPath());
        if (bwrap.isEmpty()) {
            return BackendChoice.Probe.missing("bubblewrap (" + config.bwrapPath() + ") is not installed");
        }
        Optional<Cgroups> cgroups = Cgroups.detect(CGROUP_MOUNT, config.workerId());
        if (cgroups.isEmpty()) {
            LOG.warn("bubblewrap sandboxes run without control groups: memory is capped per process by rlimit, but "
                    + "there is no process-count limit (a fork bomb runs until its time-out). Run the worker with a "
                    + "writable cgroup tree (root, or a delegated cgroup v2 subtree) to get the limits.");
        }
        return BackendChoice.Probe.found(new BubblewrapBackend(bwrap.get(), config, cgroups));
    }

    @Override
    public String name() {
        return "bubblewrap";
    }

    @Override
    public SandboxHost newHost(SandboxKey key, Path workspace) {
        return new BubblewrapHost(bwrap, workspace, config, cgroups, key.uniqueName());
    }

    @Override
    public boolean limitsProcesses() {
        return cgroups.isPresent();
    }

    @Override
    public boolean canPool() {
        return true;
    }

    @Override
    public void close() {
        cgroups.ifPresent(Cgroups::removeParents);
    }
}
