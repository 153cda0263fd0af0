package dev.agentbus.sandbox.tools;

import dev.agentbus.events.session.ShellState;
import dev.agentbus.sandbox.sandboxing.SandboxConfig;
import dev.agentbus.sandbox.sandboxing.SandboxSpec;
import dev.agentbus.sandbox.sandboxing.Sandboxes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import static dev.agentbus.sandbox.tools.Json.args;
import static org.assertj.core.api.Assertions.assertThat;

/** The shell tool through the facade, in real bubblewrap sandboxes (the Docker backend has its own tests). */
class ShellToolIT {
    private static final Sandboxes BUBBLEWRAP = new Sandboxes(SandboxConfig.defaults()
            .withBackend(SandboxConfig.Backend.BUBBLEWRAP));

    @TempDir
    Path ws;

    private final ToolExecutor tools = new ToolExecutor(SandboxSettings.defaults(), BUBBLEWRAP);

    @AfterAll
    static void closeSandboxes() {
        BUBBLEWRAP.close();
    }

    private ToolOutcome shell(Object... keysAndValues) {
        return tools.execute("shell", args(keysAndValues), ws, null);
    }

    @Test
    void a_file_written_by_a_command_exists_in_the_workspace_and_the_exit_code_is_shown() throws Exception {
        ToolOutcome outcome = shell("command", "echo built > out.txt && cat out.txt");

        assertThat(outcome.ok()).isTrue();
        assertThat(outcome.output()).isEqualTo("built\nexit code: 0");
        assertThat(ws.resolve("out.txt")).hasContent("built");
        assertThat(outcome.truncated()).isFalse();
        assertThat(outcome.error()).isNull();
    }

    @Test
    void a_non_zero_exit_code_is_a_completed_call_with_the_code_in_the_output() {
        ToolOutcome outcome = shell("command", "echo failing >&2; exit 3");

        assertThat(outcome.ok()).isTrue();
        assertThat(outcome.output()).isEqualTo("failing\nexit code: 3");
    }

    @Test
    void the_shell_state_after_the_command_is_in_the_outcome_and_carries_over() {
        ToolOutcome moved = shell("command", "mkdir -p src && cd src && export MODE=debug");
        ToolOutcome next = shell("command", "pwd; echo $MODE");

        assertThat(moved.shell()).isEqualTo(new ShellState("/workspace/src", Map.of("MODE", "debug")));
        assertThat(next.output()).isEqualTo("/workspace/src\ndebug\nexit code: 0");
        assertThat(next.shell()).isEqualTo(moved.shell());
    }

    @Test
    void a_session_goes_on_from_the_state_its_log_recorded() throws Exception {
        Files.createDirectories(ws.resolve("app"));
        SandboxSpec spec = new SandboxSpec("u1", "restored-" + System.nanoTime(), ws,
                new ShellState("/workspace/app", Map.of("STAGE", "2")));

        ToolOutcome outcome = tools.execute("shell", args("command", "pwd; echo $STAGE"), spec, null);

        assertThat(outcome.output()).isEqualTo("/workspace/app\n2\nexit code: 0");
    }

    @Test
    void a_time_out_fails_the_call_keeps_the_output_and_is_quick() {
        long start = System.nanoTime();

        ToolOutcome outcome = shell("command", "echo working; sleep 100", "timeout_seconds", 1);

        assertThat(outcome.ok()).isFalse();
        assertThat(outcome.error()).isEqualTo("command timed out after 1 s; it and every process it started were "
                + "killed");
        assertThat(outcome.output()).isEqualTo("working\n");
        assertThat(outcome.shell()).isEqualTo(ShellState.INITIAL);
        assertThat(System.nanoTime() - start).isLessThan(8_000_000_000L);
    }

    @Test
    void timeouts_are_clamped_and_the_model_is_told() {
        assertThat(shell("command", "true", "timeout_seconds", 500).output())
                .isEqualTo("exit code: 0\n[timeout_seconds 500 was clamped to 120]");
        assertThat(shell("command", "true", "timeout_seconds", 0).output())
                .isEqualTo("exit code: 0\n[timeout_seconds 0 was clamped to 1]");
    }

    @Test
    void output_beyond_the_cap_ends_with_a_visible_marker() {
        try (Sandboxes small = new Sandboxes(SandboxConfig.defaults().withBackend(SandboxConfig.Backend.BUBBLEWRAP)
                .withOutputCapBytes(2048))) {
            ToolExecutor capped = new ToolExecutor(SandboxSettings.defaults().withOutputCapBytes(2048), small);

            ToolOutcome outcome = capped.execute("shell", args("command", "head -c 100000 /dev/zero | tr '\\0' x"),
                    ws, null);

            assertThat(outcome.ok()).isTrue();
            assertThat(outcome.truncated()).isTrue();
            assertThat(outcome.output()).startsWith("x".repeat(2048))
                    .endsWith("\n[output truncated: 97952 more bytes not shown]\nexit code: 0");
        }
    }

    @Test
    void live_output_is_streamed_to_the_listener() {
        List<String> live = new CopyOnWriteArrayList<>();

        ToolOutcome outcome = tools.execute("shell", args("command", "echo a; echo b"), ws, live::add);

        assertThat(String.join("", live)).isEqualTo("a\nb\n");
        assertThat(outcome.output()).isEqualTo("a\nb\nexit code: 0");
    }

    @Test
    void no_backend_is_a_clear_failure_that_says_what_to_install() {
        try (Sandboxes none = new Sandboxes(SandboxConfig.defaults().withBackend(SandboxConfig.Backend.BUBBLEWRAP)
                .withBwrapPath("/nonexistent/bwrap"))) {
            ToolOutcome outcome = new ToolExecutor(SandboxSettings.defaults(), none)
                    .execute("shell", args("command", "echo hi"), ws, null);

            assertThat(outcome.ok()).isFalse();
            assertThat(outcome.error()).isEqualTo("the sandbox is not available: no sandbox backend is available "
                    + "(bubblewrap): bubblewrap (/nonexistent/bwrap) is not installed; install one, or set "
                    + "AGENTBUS_SANDBOX_UNSAFE_HOST=true to run commands directly on the host (unsafe)");
            assertThat(none.backend()).isEqualTo("none");
        }
    }

    @Test
    void unsafe_host_mode_runs_without_a_sandbox() throws Exception {
        try (Sandboxes host = new Sandboxes(SandboxConfig.defaults().withUnsafeHost(true)
                .withBwrapPath("/nonexistent/bwrap"))) {
            ToolExecutor onHost = new ToolExecutor(SandboxSettings.defaults().withUnsafeHost(true), host);

            ToolOutcome outcome = onHost.execute("shell", args("command", "pwd; echo x > f; mkdir -p d; cd d"), ws,
                    null);

            assertThat(outcome.ok()).isTrue();
            assertThat(outcome.output()).isEqualTo(ws.toRealPath() + "\nexit code: 0");
            assertThat(outcome.shell()).isEqualTo(new ShellState("/workspace/d", Map.of()));
            assertThat(Files.readString(ws.resolve("f"))).isEqualTo("x\n");
        }
    }

    @Test
    void a_blank_or_missing_command_is_refused() {
        assertThat(shell("command", "  ").error()).isEqualTo("command must not be empty");
        assertThat(shell().error()).isEqualTo("missing required argument: command");
        assertThat(shell("command", "true", "timeout_seconds", "soon").error())
                .isEqualTo("argument 'timeout_seconds' must be an integer");
        assertThat(shell("command", "echo \0").error()).isEqualTo("command must not contain a NUL character");
    }
}
