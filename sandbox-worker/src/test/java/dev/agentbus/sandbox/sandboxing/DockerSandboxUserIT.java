package dev.agentbus.sandbox.sandboxing;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Docker sandboxes run as a uid no account of the host has (issue 28: they ran as uid 1000, the first user of most
 * hosts, so a process that escaped its container would have been that user, with that user's files).
 */
class DockerSandboxUserIT {
    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    @TempDir
    Path root;

    @Test
    void commands_run_as_the_dedicated_uid_which_no_host_account_has_and_the_workspace_is_handed_to_it()
            throws Exception {
        Sandboxes sandboxes = BackendsUnderTest.shared(BackendsUnderTest.DOCKER);
        Path workspace = Files.createDirectories(root.resolve("victor").resolve("s-" + UUID.randomUUID()));
        Sandbox sandbox = sandboxes.acquire(new SandboxSpec("victor", workspace.getFileName().toString(), workspace,
                null));

        String seen = sandbox.shell("id -u; id -g; echo made > by-sandbox.txt", TIMEOUT, null).output();

        int worker = (Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid");
        int expected = worker == 0 ? SandboxConfig.DEFAULT_DOCKER_UID : worker;
        assertThat(seen).isEqualTo(expected + "\n" + expected + "\n");
        assertThat(Files.getAttribute(workspace, "unix:uid")).isEqualTo(expected);
        assertThat(Files.getAttribute(workspace.resolve("by-sandbox.txt"), "unix:uid")).isEqualTo(expected);
        if (worker == 0) {
            assertThat(Files.readAllLines(Path.of("/etc/passwd")))
                    .noneMatch(line -> line.split(":")[2].equals(Integer.toString(expected)));
            assertThat(expected).isNotEqualTo(1000);
        }
    }

    @Test
    void a_workspace_a_root_worker_gave_uid_1000_before_is_handed_to_the_dedicated_uid() throws Exception {
        int worker = (Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid");
        Path workspace = Files.createDirectories(root.resolve("wendy").resolve("s-" + UUID.randomUUID()));
        Files.writeString(workspace.resolve("old.txt"), "from before\n");
        if (worker == 0) {
            for (Path p : new Path[] {workspace, workspace.resolve("old.txt")}) {
                Files.setAttribute(p, "unix:uid", 1000);
                Files.setAttribute(p, "unix:gid", 1000);
            }
        }
        Sandbox sandbox = BackendsUnderTest.shared(BackendsUnderTest.DOCKER).acquire(new SandboxSpec("wendy",
                workspace.getFileName().toString(), workspace, null));

        String seen = sandbox.shell("id -u; echo more >> old.txt && cat old.txt", TIMEOUT, null).output();

        int expected = worker == 0 ? SandboxConfig.DEFAULT_DOCKER_UID : worker;
        assertThat(seen).isEqualTo(expected + "\nfrom before\nmore\n");
        assertThat(Files.getAttribute(workspace.resolve("old.txt"), "unix:uid")).isEqualTo(expected);
    }
}
