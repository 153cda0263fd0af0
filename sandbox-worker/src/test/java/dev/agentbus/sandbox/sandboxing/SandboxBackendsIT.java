package dev.agentbus.sandbox.sandboxing;

import dev.agentbus.events.session.ShellState;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** What every backend must do, run against real bubblewrap and a real Docker engine. */
class SandboxBackendsIT {
    private static final Duration TEN_SECONDS = Duration.ofSeconds(10);

    @TempDir
    Path root;

    private SandboxSpec spec(String user, ShellState restore) throws Exception {
        Path workspace = Files.createDirectories(root.resolve(user).resolve("s-" + UUID.randomUUID()));
        return new SandboxSpec(user, workspace.getFileName().toString(), workspace, restore);
    }

    private static String shell(Sandbox sandbox, String command) throws Exception {
        CommandResult result = sandbox.shell(command, TEN_SECONDS, null);
        assertThat(result.timedOut()).as("timed out: " + command).isFalse();
        return result.output();
    }

    @ParameterizedTest
    @ValueSource(strings = {BackendsUnderTest.BUBBLEWRAP, BackendsUnderTest.DOCKER})
    void cd_and_export_carry_over_to_the_next_command_and_are_the_recorded_state(String backend) throws Exception {
        Sandboxes sandboxes = BackendsUnderTest.shared(backend);
        SandboxSpec spec = spec("alice", null);
        Sandbox sandbox = sandboxes.acquire(spec);

        CommandResult first = sandbox.shell("mkdir -p src/lib && cd src && export GREETING='hello world' PHASE=2",
                TEN_SECONDS, null);
        String second = shell(sandboxes.acquire(spec), "pwd; echo \"$GREETING/$PHASE\"; echo made > here.txt");

        assertThat(sandbox.backend()).isEqualTo(backend);
        assertThat(first.exitCode()).isZero();
        assertThat(first.shell()).isEqualTo(new ShellState("/workspace/src",
                Map.of("GREETING", "hello world", "PHASE", "2")));
        assertThat(second).isEqualTo("/workspace/src\nhello world/2\n");
        assertThat(spec.workspace().resolve("src/here.txt")).hasContent("made");
        assertThat(sandbox.state()).isEqualTo(first.shell());
    }

    @ParameterizedTest
    @ValueSource(strings = {BackendsUnderTest.BUBBLEWRAP, BackendsUnderTest.DOCKER})
    void a_command_that_exits_the_shell_reports_its_code_and_the_next_one_goes_on_where_it_was(String backend)
            throws Exception {
        Sandbox sandbox = BackendsUnderTest.shared(backend).acquire(spec("bob", null));

        CommandResult exited = sandbox.shell("mkdir -p d && cd d && export KEPT=yes && echo bye >&2; exit 3",
                TEN_SECONDS, null);
        String after = shell(sandbox, "pwd; echo $KEPT");

        assertThat(exited.exitCode()).isEqualTo(3);
        assertThat(exited.output()).isEqualTo("bye\n");
        assertThat(after).isEqualTo("/workspace/d\nyes\n");
    }

    @ParameterizedTest
    @ValueSource(strings = {BackendsUnderTest.BUBBLEWRAP, BackendsUnderTest.DOCKER})
    void a_syntax_error_is_an_exit_code_not_a_broken_sandbox(String backend) throws Exception {
        Sandbox sandbox = BackendsUnderTest.shared(backend).acquire(spec("carol", null));

        CommandResult bad = sandbox.shell("if then fi (", TEN_SECONDS, null);

        assertThat(bad.exitCode()).isEqualTo(2);
        assertThat(bad.output()).contains("Syntax error");
        assertThat(shell(sandbox, "echo fine")).isEqualTo("fine\n");
    }

    @ParameterizedTest
    @ValueSource(strings = {BackendsUnderTest.BUBBLEWRAP, BackendsUnderTest.DOCKER})
    void a_time_out_kills_the_command_and_what_it_started_and_the_shell_comes_back_as_before(String backend)
            throws Exception {
        Sandbox sandbox = BackendsUnderTest.shared(backend).acquire(spec("dave", null));
        shell(sandbox, "mkdir -p keep && cd keep && export LEVEL=1");
        long start = System.nanoTime();

        CommandResult timedOut = sandbox.shell("export LEVEL=2; cd /tmp; echo started; sleep 471 & sleep 472",
                Duration.ofSeconds(1), null);
        String after = shell(sandbox, "pwd; echo $LEVEL; cat /proc/[0-9]*/cmdline 2>/dev/null | tr '\\0' ' '");

        assertThat(timedOut.timedOut()).isTrue();
        assertThat(timedOut.output()).isEqualTo("started\n");
        assertThat(timedOut.shell()).isEqualTo(new ShellState("/workspace/keep", Map.of("LEVEL", "1")));
        assertThat(System.nanoTime() - start).isLessThan(Duration.ofSeconds(15).toNanos());
        assertThat(after).startsWith("/workspace/keep\n1\n").doesNotContain("sleep 471", "sleep 472");
    }

    @ParameterizedTest
    @ValueSource(strings = {BackendsUnderTest.BUBBLEWRAP, BackendsUnderTest.DOCKER})
    void a_new_sandbox_starts_from_the_recorded_state(String backend) throws Exception {
        SandboxSpec spec = spec("erin", new ShellState("/workspace/a/b", Map.of("QUOTED", "it's \"two\"\nlines",
                "PATH", "/workspace/bin:/usr/local/bin:/usr/bin:/bin")));
        Files.createDirectories(spec.workspace().resolve("a/b"));

        Sandbox sandbox = BackendsUnderTest.shared(backend).acquire(spec);

        assertThat(shell(sandbox, "pwd; printf '%s|' \"$QUOTED\"; echo; echo $PATH"))
                .isEqualTo("/workspace/a/b\nit's \"two\"\nlines|\n/workspace/bin:/usr/local/bin:/usr/bin:/bin\n");
        assertThat(sandbox.state()).isEqualTo(spec.restore());
    }

    @ParameterizedTest
    @ValueSource(strings = {BackendsUnderTest.BUBBLEWRAP, BackendsUnderTest.DOCKER})
    void a_recorded_directory_that_is_gone_falls_back_to_the_workspace(String backend) throws Exception {
        Sandbox sandbox = BackendsUnderTest.shared(backend).acquire(
                spec("frank", new ShellState("/workspace/deleted", Map.of("X", "1"))));

        assertThat(shell(sandbox, "pwd; echo $X")).isEqualTo("/workspace\n1\n");
    }

    @ParameterizedTest
    @ValueSource(strings = {BackendsUnderTest.BUBBLEWRAP, BackendsUnderTest.DOCKER})
    void secret_variables_are_recorded_masked_kept_live_and_not_restored(String backend) throws Exception {
        Sandboxes sandboxes = BackendsUnderTest.shared(backend);
        SandboxSpec spec = spec("grace", null);
        Sandbox sandbox = sandboxes.acquire(spec);

        CommandResult exported = sandbox.shell("export API_TOKEN=abcdef123456 OPENAI=sk-abcdefghijklmnopqrstuvwxyz "
                + "PLAIN=visible", TEN_SECONDS, null);
        String live = shell(sandbox, "echo $API_TOKEN $OPENAI");
        Sandbox restored = sandboxes.restart(new SandboxSpec(spec.userId(), spec.sessionId(), spec.workspace(),
                exported.shell()));

        assertThat(exported.shell().env()).isEqualTo(Map.of("API_TOKEN", "[REDACTED]", "OPENAI", "[REDACTED]",
                "PLAIN", "visible"));
        assertThat(live).isEqualTo("abcdef123456 sk-abcdefghijklmnopqrstuvwxyz\n");
        assertThat(shell(restored, "echo \"[${API_TOKEN-unset}] [$PLAIN]\"")).isEqualTo("[unset] [visible]\n");
    }

    @ParameterizedTest
    @ValueSource(strings = {BackendsUnderTest.BUBBLEWRAP, BackendsUnderTest.DOCKER})
    void exec_runs_argv_without_a_shell_in_the_given_directory_and_leaves_the_state_alone(String backend)
            throws Exception {
        Sandbox sandbox = BackendsUnderTest.shared(backend).acquire(spec("heidi", null));
        shell(sandbox, "mkdir -p sub && export KEEP=1");

        CommandResult result = sandbox.exec(List.of("sh", "-c", "pwd; echo \"$0\"", "$HOME; it's | ok"),
                "/workspace/sub", TEN_SECONDS, null);
        CommandResult echo = sandbox.exec(List.of("echo", "$KEEP", "*", "a b"), null, TEN_SECONDS, null);

        assertThat(result.output()).isEqualTo("/workspace/sub\n$HOME; it's | ok\n");
        assertThat(echo.output()).isEqualTo("$KEEP * a b\n");
        assertThat(result.shell()).isEqualTo(new ShellState("/workspace", Map.of("KEEP", "1")));
        assertThat(sandbox.exec(List.of("false"), null, TEN_SECONDS, null).exitCode()).isEqualTo(1);
        assertThat(sandbox.exec(List.of("ls"), "/workspace/missing", TEN_SECONDS, null).exitCode()).isNotZero();
    }

    @ParameterizedTest
    @ValueSource(strings = {BackendsUnderTest.BUBBLEWRAP, BackendsUnderTest.DOCKER})
    void a_tmux_server_started_by_one_call_is_there_for_the_next(String backend) throws Exception {
        Sandbox sandbox = BackendsUnderTest.shared(backend).acquire(spec("ivan", null));

        CommandResult started = sandbox.exec(List.of("tmux", "new-session", "-d", "-s", "work", "sleep 600"), null,
                TEN_SECONDS, null);
        CommandResult listed = sandbox.exec(List.of("tmux", "list-sessions", "-F", "#{session_name}"), null,
                TEN_SECONDS, null);

        assertThat(started.exitCode()).as(started.output()).isZero();
        assertThat(listed.output()).isEqualTo("work\n");
    }

    @ParameterizedTest
    @ValueSource(strings = {BackendsUnderTest.BUBBLEWRAP, BackendsUnderTest.DOCKER})
    void output_is_streamed_live_and_capped_with_the_count_of_what_was_cut(String backend) throws Exception {
        Sandboxes sandboxes = BackendsUnderTest.fresh(backend, c -> c.withOutputCapBytes(1000));
        try (sandboxes) {
            Sandbox sandbox = sandboxes.acquire(spec("judy", null));
            List<String> live = new CopyOnWriteArrayList<>();

            CommandResult result = sandbox.shell("echo first; head -c 5000 /dev/zero | tr '\\0' y", TEN_SECONDS,
                    live::add);

            assertThat(result.output()).hasSize(1000).startsWith("first\nyyy");
            assertThat(result.omittedBytes()).isEqualTo(5006 - 1000);
            assertThat(String.join("", live)).isEqualTo(result.output());
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {BackendsUnderTest.BUBBLEWRAP, BackendsUnderTest.DOCKER})
    void restart_gives_a_fresh_sandbox_in_the_given_state_and_kills_the_old_one(String backend) throws Exception {
        Sandboxes sandboxes = BackendsUnderTest.shared(backend);
        SandboxSpec spec = spec("ken", null);
        Sandbox old = sandboxes.acquire(spec);
        shell(old, "sleep 600 & echo $! > /tmp/pid; echo data > kept.txt");

        Sandbox fresh = sandboxes.restart(new SandboxSpec(spec.userId(), spec.sessionId(), spec.workspace(),
                new ShellState("/workspace", Map.of("AFTER", "restart"))));

        assertThat(fresh).isNotSameAs(old);
        assertThat(shell(fresh, "cat kept.txt; echo $AFTER; ls /tmp/pid 2>&1 >/dev/null | wc -l"))
                .isEqualTo("data\nrestart\n1\n");
        assertThatThrownBy(() -> old.shell("true", TEN_SECONDS, null)).isInstanceOf(SandboxException.class);
        assertThat(sandboxes.acquire(spec)).isSameAs(fresh);
    }

    @ParameterizedTest
    @ValueSource(strings = {BackendsUnderTest.BUBBLEWRAP, BackendsUnderTest.DOCKER})
    void idle_sandboxes_are_reaped_and_the_next_call_starts_from_the_spec(String backend) throws Exception {
        try (Sandboxes sandboxes = BackendsUnderTest.fresh(backend, c -> c.withIdleTimeout(Duration.ofMillis(300)))) {
            SandboxSpec spec = spec("leo", null);
            Sandbox first = sandboxes.acquire(spec);
            CommandResult moved = first.shell("mkdir -p w && cd w", TEN_SECONDS, null);

            long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
            while (sandboxes.running() > 0 && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
            Sandbox second = sandboxes.acquire(new SandboxSpec(spec.userId(), spec.sessionId(), spec.workspace(),
                    moved.shell()));

            assertThat(sandboxes.running()).isEqualTo(1);
            assertThat(second).isNotSameAs(first);
            assertThat(shell(second, "pwd")).isEqualTo("/workspace/w\n");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {BackendsUnderTest.BUBBLEWRAP, BackendsUnderTest.DOCKER})
    void sessions_never_share_a_sandbox(String backend) throws Exception {
        Sandboxes sandboxes = BackendsUnderTest.shared(backend);
        SandboxSpec mine = spec("mallory", null);
        SandboxSpec theirs = spec("niaj", null);

        Sandbox a = sandboxes.acquire(mine);
        Sandbox b = sandboxes.acquire(theirs);
        shell(a, "echo mine > only-here.txt; export WHO=mallory");

        assertThat(a).isNotSameAs(b);
        assertThat(shell(b, "ls; echo \"[$WHO]\"")).isEqualTo("[]\n");
    }

    @ParameterizedTest
    @ValueSource(strings = {BackendsUnderTest.BUBBLEWRAP, BackendsUnderTest.DOCKER})
    void the_network_is_there_only_when_the_configuration_allows_it(String backend) throws Exception {
        String interfaces = "tail -n +3 /proc/net/dev | cut -d: -f1 | tr -d ' ' | sort | tr '\\n' ' '";
        String closed = shell(BackendsUnderTest.shared(backend).acquire(spec("olivia", null)), interfaces);
        try (Sandboxes open = BackendsUnderTest.fresh(backend, c -> c.withNetwork(true))) {
            String opened = shell(open.acquire(spec("olivia", null)), interfaces);

            assertThat(closed).isEqualTo("lo ");
            assertThat(opened.split(" ")).contains("lo").hasSizeGreaterThan(1);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {BackendsUnderTest.BUBBLEWRAP, BackendsUnderTest.DOCKER})
    void a_released_session_gets_a_new_sandbox_from_its_recorded_state_next_time(String backend) throws Exception {
        Sandboxes sandboxes = BackendsUnderTest.shared(backend);
        SandboxSpec spec = spec("quinn", null);
        Sandbox before = sandboxes.acquire(spec);
        shell(before, "export LIVE=1; echo kept > file.txt");

        sandboxes.release(spec);
        Sandbox after = sandboxes.acquire(new SandboxSpec(spec.userId(), spec.sessionId(), spec.workspace(),
                new ShellState("/workspace", Map.of("FROM_LOG", "yes"))));

        assertThat(after).isNotSameAs(before);
        assertThat(shell(after, "echo \"[${LIVE-}] [$FROM_LOG]\"; cat file.txt")).isEqualTo("[] [yes]\nkept\n");
    }
}
