package dev.agentbus.sandbox.shell;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Runs real bubblewrap (it must be installed: these tests fail rather than skip without it, because a sandbox
 * that silently is not tested is worse than a red build).
 */
class ShellRunnerTest {
    private static final Duration TEN_SECONDS = Duration.ofSeconds(10);
    /** What a command may see in its environment: what we set plus what sh itself adds. */
    private static final Set<String> ALLOWED_ENV = Set.of("PATH", "HOME", "LANG", "TMPDIR", "PWD", "OLDPWD",
            "SHLVL", "_");

    @TempDir
    Path ws;

    private final ShellRunner sandbox = new ShellRunner("bwrap", false, 64 * 1024);

    @Test
    void runs_in_the_workspace_which_it_sees_as_slash_workspace() throws Exception {
        ShellResult result = sandbox.run("pwd; echo hello > made.txt; mkdir -p d && echo x > d/y", TEN_SECONDS, ws,
                null);

        assertThat(result.exitCode()).isZero();
        assertThat(result.output()).isEqualTo("/workspace\n");
        assertThat(ws.resolve("made.txt")).hasContent("hello");
        assertThat(ws.resolve("d/y")).hasContent("x");
    }

    @Test
    void cannot_write_anywhere_on_the_host_but_the_workspace() throws Exception {
        String name = "agentbus-escape-" + UUID.randomUUID();
        String command = "touch /etc/" + name + "; echo x > /usr/" + name + "; touch /" + name
                + "; touch /tmp/" + name + " && echo private-tmp-ok";

        ShellResult result = sandbox.run(command, TEN_SECONDS, ws, null);

        assertThat(result.output()).contains("Read-only file system").contains("private-tmp-ok");
        assertThat(Path.of("/etc", name)).doesNotExist();
        assertThat(Path.of("/usr", name)).doesNotExist();
        assertThat(Path.of("/", name)).doesNotExist();
        assertThat(Path.of("/tmp", name)).doesNotExist();
    }

    @Test
    void sees_no_host_secrets_files_or_environment() throws Exception {
        ShellResult result = sandbox.run("env; echo ---; cat /etc/shadow; ls /root /home /var", TEN_SECONDS, ws,
                null);

        String env = result.output().substring(0, result.output().indexOf("---"));
        Set<String> keys = env.lines().map(line -> line.substring(0, line.indexOf('='))).collect(Collectors.toSet());
        assertThat(keys).isSubsetOf(ALLOWED_ENV);
        assertThat(env).contains("PATH=/usr/local/bin:/usr/bin:/bin\n", "HOME=/workspace\n")
                .doesNotContain("JAVA_HOME", "MAVEN");
        assertThat(result.output()).contains("/etc/shadow: No such file or directory")
                .contains("/root': No such file or directory");
    }

    @Test
    void has_no_network_but_loopback() throws Exception {
        ShellResult result = sandbox.run("cat /proc/net/dev", TEN_SECONDS, ws, null);

        List<String> interfaces = result.output().lines().skip(2)
                .map(line -> line.trim().split(":")[0]).toList();
        assertThat(interfaces).containsExactly("lo");
    }

    @Test
    void common_tools_work_inside() throws Exception {
        ShellResult result = sandbox.run("echo 'a b' | awk '{print $2}'; id -un; ls -l / >/dev/null && echo ls-ok",
                TEN_SECONDS, ws, null);

        assertThat(result.exitCode()).isZero();
        assertThat(result.output()).startsWith("b\n").contains("ls-ok");
    }

    @Test
    void reports_the_exit_code_and_closes_stdin() throws Exception {
        assertThat(sandbox.run("exit 3", TEN_SECONDS, ws, null).exitCode()).isEqualTo(3);

        long start = System.nanoTime();
        ShellResult cat = sandbox.run("cat; echo after-cat", TEN_SECONDS, ws, null);
        assertThat(cat.output()).isEqualTo("after-cat\n");
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
    }

    @Test
    void a_time_out_kills_the_command_quickly_and_keeps_what_it_printed() throws Exception {
        long start = System.nanoTime();

        ShellResult result = sandbox.run("echo before; sleep 100", Duration.ofSeconds(1), ws, null);

        assertThat(result.timedOut()).isTrue();
        assertThat(result.output()).isEqualTo("before\n");
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(8));
    }

    @Test
    void a_time_out_also_kills_background_children() throws Exception {
        ShellResult result = sandbox.run("sleep 1037 & sleep 1038", Duration.ofSeconds(1), ws, null);

        assertThat(result.timedOut()).isTrue();
        assertNoProcessLeft("sleep 1037", "sleep 1038");
    }

    @Test
    void background_jobs_do_not_outlive_the_command() throws Exception {
        long start = System.nanoTime();

        ShellResult result = sandbox.run("sleep 1039 & echo started", TEN_SECONDS, ws, null);

        assertThat(result.timedOut()).isFalse();
        assertThat(result.output()).isEqualTo("started\n");
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
        assertNoProcessLeft("sleep 1039");
    }

    @Test
    void output_beyond_the_cap_is_counted_dropped_and_still_drained() throws Exception {
        ShellRunner small = new ShellRunner("bwrap", false, 1000);
        List<String> live = new CopyOnWriteArrayList<>();

        ShellResult result = small.run("head -c 200000 /dev/zero | tr '\\0' a; echo; echo end", TEN_SECONDS, ws,
                live::add);

        assertThat(result.timedOut()).isFalse();
        assertThat(result.exitCode()).isZero();
        assertThat(result.output()).hasSize(1000).matches("a+");
        assertThat(result.omittedBytes()).isEqualTo(200000 - 1000 + "\nend\n".length());
        assertThat(result.truncated()).isTrue();
        assertThat(String.join("", live)).isEqualTo(result.output());
    }

    @Test
    void the_cap_never_splits_a_utf8_character() throws Exception {
        ShellRunner small = new ShellRunner("bwrap", false, 1001);

        // 600 two-byte characters: the cap falls in the middle of the 501st.
        ShellResult result = small.run("for i in $(seq 600); do printf 'é'; done", TEN_SECONDS, ws, null);

        assertThat(result.output()).hasSize(500).matches("é+");
        assertThat(result.omittedBytes()).isEqualTo(200);
    }

    @Test
    void live_output_arrives_in_chunks_while_the_command_runs() throws Exception {
        List<String> live = new CopyOnWriteArrayList<>();
        List<Long> arrivals = new ArrayList<>();
        long start = System.nanoTime();

        ShellResult result = sandbox.run("echo one; sleep 1; echo twö", TEN_SECONDS, ws, chunk -> {
            live.add(chunk);
            synchronized (arrivals) {
                arrivals.add(System.nanoTime() - start);
            }
        });

        assertThat(String.join("", live)).isEqualTo("one\ntwö\n").isEqualTo(result.output());
        assertThat(live).hasSizeGreaterThanOrEqualTo(2);
        // "one" was handed over while the command was still sleeping, not at the end.
        assertThat(arrivals.getFirst()).isLessThan(arrivals.getLast() - Duration.ofMillis(500).toNanos());
    }

    @Test
    void a_missing_bwrap_is_refused_with_a_clear_message() {
        ShellRunner missing = new ShellRunner("/nonexistent/bwrap", false, 1000);
        ShellRunner missingOnPath = new ShellRunner("no-such-bwrap-binary", false, 1000);

        assertThatThrownBy(() -> missing.run("echo hi", TEN_SECONDS, ws, null))
                .isInstanceOf(ShellUnavailableException.class)
                .hasMessage("bubblewrap (bwrap) is not installed; install it or set "
                        + "AGENTBUS_SANDBOX_UNSAFE_HOST=true to run commands directly on the host (unsafe)");
        assertThatThrownBy(() -> missingOnPath.run("echo hi", TEN_SECONDS, ws, null))
                .isInstanceOf(ShellUnavailableException.class);
    }

    @Test
    void bwrap_availability_checks_paths_and_the_search_path() {
        assertThat(ShellRunner.bwrapAvailable("bwrap")).isTrue();
        assertThat(ShellRunner.bwrapAvailable("/usr/bin/bwrap")).isTrue();
        assertThat(ShellRunner.bwrapAvailable("/nonexistent/bwrap")).isFalse();
        assertThat(ShellRunner.bwrapAvailable("no-such-bwrap-binary")).isFalse();
        assertThat(ShellRunner.bwrapAvailable("")).isFalse();
        assertThat(ShellRunner.bwrapAvailable(null)).isFalse();
    }

    @Test
    void unsafe_host_mode_runs_on_the_host_in_the_workspace_with_a_clean_environment() throws Exception {
        ShellRunner host = new ShellRunner("/nonexistent/bwrap", true, 64 * 1024);

        ShellResult result = host.run("pwd; env; echo hi > f.txt", TEN_SECONDS, ws, null);

        List<String> lines = result.output().lines().toList();
        assertThat(lines.getFirst()).isEqualTo(ws.toRealPath().toString());
        Set<String> keys = lines.stream().skip(1).map(line -> line.substring(0, line.indexOf('=')))
                .collect(Collectors.toSet());
        assertThat(keys).isSubsetOf(ALLOWED_ENV);
        assertThat(ws.resolve("f.txt")).hasContent("hi");
    }

    @Test
    void unsafe_host_mode_still_kills_the_whole_tree_on_time_out() throws Exception {
        ShellRunner host = new ShellRunner("bwrap", true, 64 * 1024);

        ShellResult result = host.run("sleep 1041 & sleep 1042", Duration.ofSeconds(1), ws, null);

        assertThat(result.timedOut()).isTrue();
        assertNoProcessLeft("sleep 1041", "sleep 1042");
    }

    @Test
    void unsafe_host_mode_leaves_no_background_job_behind() throws Exception {
        ShellRunner host = new ShellRunner("bwrap", true, 64 * 1024);

        ShellResult result = host.run("sleep 1043 & echo started", TEN_SECONDS, ws, null);

        assertThat(result.output()).isEqualTo("started\n");
        assertNoProcessLeft("sleep 1043");
    }

    @Test
    void an_interrupted_caller_kills_the_command() throws Exception {
        Thread caller = Thread.currentThread();
        Thread interrupter = Thread.ofPlatform().start(() -> {
            try {
                Thread.sleep(700);
            } catch (InterruptedException ignored) {
                return;
            }
            caller.interrupt();
        });

        assertThatThrownBy(() -> sandbox.run("sleep 1044", TEN_SECONDS, ws, null))
                .isInstanceOf(InterruptedException.class);
        interrupter.join();
        Thread.interrupted();
        assertNoProcessLeft("sleep 1044");
    }

    @Test
    void a_throwing_live_listener_does_not_stop_the_command() throws Exception {
        ShellResult result = sandbox.run("echo one; sleep 0.2; echo two", TEN_SECONDS, ws, chunk -> {
            throw new IllegalStateException("stream down");
        });

        assertThat(result.output()).isEqualTo("one\ntwo\n");
        assertThat(result.exitCode()).isZero();
    }

    @Test
    void the_sandbox_command_line_binds_the_workspace_and_nothing_else_writable() {
        List<String> argv = Bubblewrap.command(Path.of("/usr/bin/bwrap"), ws, "true");

        assertThat(argv).containsSubsequence("--bind", ws.toString(), "/workspace");
        assertThat(argv.stream().filter(a -> a.equals("--bind")).count()).isEqualTo(1);
        assertThat(argv).containsSubsequence("--remount-ro", "/")
                .contains("--unshare-all", "--clearenv", "--die-with-parent", "--new-session")
                .doesNotContain("/etc/shadow", "--share-net");
        assertThat(argv.subList(argv.size() - 3, argv.size())).containsExactly("/bin/sh", "-c", "true");
    }

    /** Processes are killed asynchronously by the kernel; give it a moment before calling it a leak. */
    private static void assertNoProcessLeft(String... commandLines) throws InterruptedException {
        List<String> left = List.of();
        for (int i = 0; i < 40; i++) {
            left = ProcessHandle.allProcesses()
                    .filter(ProcessHandle::isAlive)
                    .map(p -> p.info().commandLine().orElse(""))
                    .filter(line -> Arrays.stream(commandLines).anyMatch(line::contains))
                    .toList();
            if (left.isEmpty()) {
                return;
            }
            Thread.sleep(50);
        }
        assertThat(left).as("processes left running").isEmpty();
    }
}
