package dev.agentbus.sandbox.sandboxing;

import dev.agentbus.events.session.ShellState;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Pre-started sandboxes handed to new sessions by renaming their empty workspace into place. */
class SandboxPoolIT {
    private static final Duration TEN_SECONDS = Duration.ofSeconds(10);

    @TempDir
    Path root;

    private static void awaitPool(Sandboxes sandboxes, int size) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (sandboxes.pooled() < size && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertThat(sandboxes.pooled()).isEqualTo(size);
    }

    @ParameterizedTest
    @ValueSource(strings = {BackendsUnderTest.BUBBLEWRAP, BackendsUnderTest.DOCKER})
    void a_new_session_gets_a_pooled_sandbox_that_sees_its_own_workspace_and_the_pool_refills(String backend)
            throws Exception {
        try (Sandboxes sandboxes = BackendsUnderTest.fresh(backend, c -> c.withPool(2, root.resolve(".pool")))) {
            awaitPool(sandboxes, 2);
            Path workspace = Files.createDirectories(root.resolve("u1").resolve("s1"));

            Sandbox sandbox = sandboxes.acquire(new SandboxSpec("u1", "s1", workspace, null));
            CommandResult result = sandbox.shell("echo from-sandbox > made.txt; ls -a", TEN_SECONDS, null);

            assertThat(result.output()).isEqualTo(".\n..\nmade.txt\n");
            assertThat(workspace.resolve("made.txt")).hasContent("from-sandbox");
            awaitPool(sandboxes, 2);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {BackendsUnderTest.BUBBLEWRAP, BackendsUnderTest.DOCKER})
    void a_pooled_sandbox_survives_a_time_out_in_its_new_workspace(String backend) throws Exception {
        try (Sandboxes sandboxes = BackendsUnderTest.fresh(backend, c -> c.withPool(1, root.resolve(".pool")))) {
            awaitPool(sandboxes, 1);
            Path workspace = Files.createDirectories(root.resolve("u2").resolve("s2"));
            Sandbox sandbox = sandboxes.acquire(new SandboxSpec("u2", "s2", workspace, null));

            CommandResult timedOut = sandbox.shell("sleep 60", Duration.ofSeconds(1), null);
            CommandResult after = sandbox.shell("echo again > after.txt; cat after.txt", TEN_SECONDS, null);

            assertThat(timedOut.timedOut()).isTrue();
            assertThat(after.output()).isEqualTo("again\n");
            assertThat(workspace.resolve("after.txt")).hasContent("again");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {BackendsUnderTest.BUBBLEWRAP, BackendsUnderTest.DOCKER})
    void a_session_with_files_or_a_state_to_restore_gets_a_fresh_sandbox(String backend) throws Exception {
        try (Sandboxes sandboxes = BackendsUnderTest.fresh(backend, c -> c.withPool(1, root.resolve(".pool")))) {
            awaitPool(sandboxes, 1);
            Path withFiles = Files.createDirectories(root.resolve("u3").resolve("s3"));
            Files.writeString(withFiles.resolve("old.txt"), "kept");
            Path restoring = Files.createDirectories(root.resolve("u3").resolve("s4"));

            Sandbox first = sandboxes.acquire(new SandboxSpec("u3", "s3", withFiles, null));
            Sandbox second = sandboxes.acquire(new SandboxSpec("u3", "s4", restoring,
                    new ShellState("/workspace", Map.of("V", "1"))));

            assertThat(first.shell("cat old.txt", TEN_SECONDS, null).output()).isEqualTo("kept");
            assertThat(second.shell("echo $V", TEN_SECONDS, null).output()).isEqualTo("1\n");
            assertThat(sandboxes.pooled()).isEqualTo(1);
        }
    }
}
