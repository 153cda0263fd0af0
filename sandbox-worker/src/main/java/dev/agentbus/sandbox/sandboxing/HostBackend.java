package dev.agentbus.sandbox.sandboxing;

import java.nio.file.Path;

/** Unsafe host mode: commands run on the host as the worker's user, with no isolation ({@link HostShellHost}). */
record HostBackend() implements Backend {
    @Override
    public String name() {
        return "host";
    }

    @Override
    public SandboxHost newHost(SandboxKey key, Path workspace) {
        return new HostShellHost(workspace);
    }

    @Override
    public boolean limitsProcesses() {
        return false;
    }

    /** A host shell's paths are the workspace's real path, which a pooled one would not know yet. */
    @Override
    public boolean canPool() {
        return false;
    }

    @Override
    public void close() {
        // Holds nothing.
    }
}
