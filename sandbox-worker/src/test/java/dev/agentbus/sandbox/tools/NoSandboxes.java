package dev.agentbus.sandbox.tools;

import dev.agentbus.sandbox.sandboxing.Sandbox;
import dev.agentbus.sandbox.sandboxing.SandboxException;
import dev.agentbus.sandbox.sandboxing.SandboxProvider;
import dev.agentbus.sandbox.sandboxing.SandboxSpec;

/**
 * For tests of the tools that work on files only: a provider that has no sandbox to give, so a tool that would run a
 * program fails the way it does in a worker without a backend, and the test needs no Docker and no bubblewrap.
 */
public final class NoSandboxes implements SandboxProvider {
    public static final NoSandboxes INSTANCE = new NoSandboxes();

    private NoSandboxes() {
    }

    @Override
    public Sandbox acquire(SandboxSpec spec) throws SandboxException {
        throw new SandboxException("no sandbox in this test: it covers the file tools only");
    }

    @Override
    public Sandbox restart(SandboxSpec spec) throws SandboxException {
        throw new SandboxException("no sandbox in this test: it covers the file tools only");
    }

    @Override
    public String backend() {
        return "none";
    }

    @Override
    public void close() {
    }
}
