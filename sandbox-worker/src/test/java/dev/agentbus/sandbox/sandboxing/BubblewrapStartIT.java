package dev.agentbus.sandbox.sandboxing;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** bubblewrap's own start-up failures reach the caller in words, and the provider goes on working. */
class BubblewrapStartIT {
    @TempDir
    Path root;

    @Test
    void a_sandbox_that_cannot_start_says_what_bubblewrap_said() throws Exception {
        Sandboxes sandboxes = BackendsUnderTest.shared(BackendsUnderTest.BUBBLEWRAP);
        Files.createDirectories(root.resolve("pat"));
        SandboxSpec gone = new SandboxSpec("pat", "gone", root.resolve("pat/never-created"), null);

        assertThatThrownBy(() -> sandboxes.acquire(gone)).isInstanceOf(SandboxException.class)
                .hasMessageStartingWith("the bubblewrap sandbox's shell did not start (3 attempts): "
                        + "bwrap: Can't find source path");

        Path workspace = Files.createDirectories(root.resolve("pat/fine"));
        Sandbox fine = sandboxes.acquire(new SandboxSpec("pat", "fine", workspace, null));
        assertThat(fine.shell("echo ok", Duration.ofSeconds(10), null).output()).isEqualTo("ok\n");
    }
}
