package dev.agentbus.sandbox.tools;

import dev.agentbus.events.session.ShellState;
import dev.agentbus.sandbox.sandboxing.SandboxConfig;
import dev.agentbus.sandbox.sandboxing.SandboxSpec;
import dev.agentbus.sandbox.sandboxing.Sandboxes;

import java.nio.file.Path;
import java.util.UUID;

/** The worker's real sandbox provider on the bubblewrap backend, and session specs, for the tool tests. */
final class TestSandboxes {
    private TestSandboxes() {
    }

    /** A provider of the test's own (close it after): persistent bubblewrap sandboxes, as the worker runs them. */
    static Sandboxes bubblewrap() {
        Sandboxes sandboxes = new Sandboxes(SandboxConfig.defaults().withBackend(SandboxConfig.Backend.BUBBLEWRAP)
                .withWorkerId("tools-tests-" + ProcessHandle.current().pid()));
        if (sandboxes.unavailableReason().isPresent()) {
            sandboxes.close();
            throw new AssertionError("the bubblewrap backend must be available: "
                    + sandboxes.unavailableReason().get());
        }
        return sandboxes;
    }

    /** A new session of its own around {@code workspace}, starting from {@code restore} (null: a fresh shell). */
    static SandboxSpec session(Path workspace, ShellState restore) {
        return new SandboxSpec("tester", "s-" + UUID.randomUUID(), workspace, restore);
    }
}
