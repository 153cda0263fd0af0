package dev.agentbus.sandbox.sandboxing;

import dev.agentbus.sandbox.shell.Bubblewrap;
import dev.agentbus.sandbox.shell.UserModeNetwork;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.file.Path;
import java.util.Optional;

/**
 * bubblewrap sandboxes ({@link BubblewrapHost}), limited by a control group each when the worker can create them.
 * With {@code agentbus.sandbox.network=true} they need slirp4netns ({@link UserModeNetwork}); without it the backend
 * is not available, and says why.
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
        if (config.network() && UserModeNetwork.find(config.slirp4netnsPath()).isEmpty()) {
            // Sharing the host's network instead would let a session reach what listens on the host's loopback:
            // the database, Kafka, the gateway.
            return BackendChoice.Probe.missing("agentbus.sandbox.network=true needs slirp4netns ("
                    + config.slirp4netnsPath() + ") for bubblewrap sandboxes, which get a network of their own and "
                    + "never the host's; it is not installed (apt-get install slirp4netns), so turn the network off "
                    + "or install it");
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
