package dev.agentbus.sandbox.tools;

import dev.agentbus.sandbox.sandboxing.SandboxSpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static dev.agentbus.sandbox.tools.Json.args;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code rewind} is a tool of the registry like the others, and only a person may run it. (Restoring a real
 * checkpoint needs git: see {@code CheckpointsTest} and {@code ToolRunnerCheckpointsIT}.)
 */
class RewindToolTest {
    @TempDir
    Path ws;

    private final ToolExecutor tools = new ToolExecutor(SandboxSettings.defaults(), NoSandboxes.INSTANCE);

    private ToolOutcome rewind(boolean byUser, Object... keysAndValues) {
        return tools.execute("rewind", args(keysAndValues), new SandboxSpec("alice", "s1", ws, null), byUser, null);
    }

    @Test
    void the_model_may_not_rewind() {
        ToolOutcome outcome = rewind(false, "checkpoint", "3f1e2d4c5b6a");

        assertThat(outcome.ok()).isFalse();
        assertThat(outcome.error()).isEqualTo("rewind can only be run by a person (agentbus rewind), not by the "
                + "model");
    }

    @Test
    void a_rewind_without_a_checkpoint_says_what_it_needs() {
        assertThat(rewind(true).error()).isEqualTo("rewind needs {\"checkpoint\": ID}, an id from a tool call's "
                + "result");
        assertThat(rewind(true, "checkpoint", " ").error()).startsWith("rewind needs");
    }

    @Test
    void a_worker_without_checkpoints_says_so() {
        ToolOutcome outcome = rewind(true, "checkpoint", "3f1e2d4c5b6a");

        assertThat(outcome.ok()).isFalse();
        assertThat(outcome.error()).isEqualTo("rewind failed: this sandbox-worker keeps no workspace checkpoints");
    }
}
