package dev.agentbus.sandbox.sandboxing;

import java.nio.file.Path;

/**
 * No backend: every command is refused with {@code reason} (what is missing and what to install). File tools
 * still work.
 */
record Unavailable(String reason) implements Backend {
    @Override
    public String name() {
        return "none";
    }

    @Override
    public SandboxHost newHost(SandboxKey key, Path workspace) throws SandboxException {
        throw new SandboxException(reason);
    }

    @Override
    public boolean limitsProcesses() {
        return false;
    }

    @Override
    public boolean canPool() {
        return false;
    }

    @Override
    public void close() {
        // Holds nothing.
    }
}
