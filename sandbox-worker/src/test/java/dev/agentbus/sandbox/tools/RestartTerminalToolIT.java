package dev.agentbus.sandbox.tools;

import dev.agentbus.sandbox.sandboxing.SandboxConfig;
import dev.agentbus.sandbox.sandboxing.SandboxSpec;
import dev.agentbus.sandbox.sandboxing.Sandboxes;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static dev.agentbus.sandbox.tools.Json.args;
import static org.assertj.core.api.Assertions.assertThat;

/** restart_terminal with the real bubblewrap sandboxes: what survives a restart and what does not. */
class RestartTerminalToolIT {
    @TempDir
    Path tmp;
    Path ws;
    Sandboxes sandboxes;
    ToolExecutor tools;

    @BeforeEach
    void setUp() throws IOException {
        ws = Files.createDirectories(tmp.resolve("ws"));
        sandboxes = TestSandboxes.bubblewrap();
        tools = new ToolExecutor(SandboxSettings.defaults(), sandboxes);
    }

    @AfterEach
    void tearDown() {
        sandboxes.close();
    }

    @Test
    void the_session_gets_a_fresh_sandbox_in_its_recorded_state_with_its_programs_gone() {
        SandboxSpec first = TestSandboxes.session(ws, null);
        ToolOutcome moved = tools.execute("shell", args("command", "mkdir -p src && cd src && export MODE=debug "
                + "&& touch /tmp/scratch"), first, null);
        assertThat(moved.ok()).as(moved.forModel()).isTrue();
        assertThat(tools.execute("tmux_new", args("command", "sleep 300"), first, null).ok()).isTrue();
        // The log hands the recorded state back with the next request, as the orchestrator does.
        SandboxSpec next = new SandboxSpec(first.userId(), first.sessionId(), ws, moved.shell());

        ToolOutcome outcome = tools.execute("restart_terminal", args(), next, null);

        assertThat(outcome.ok()).as(outcome.forModel()).isTrue();
        assertThat(outcome.shell()).isEqualTo(moved.shell());
        assertThat(outcome.output()).isEqualTo("""
                The terminal was restarted: this is a fresh bubblewrap sandbox.
                Kept: the workspace's files, the working directory (/workspace/src) and the exported variables \
                (MODE).
                Gone: every program that was running, including tmux sessions and their windows, and anything \
                outside the workspace such as /tmp.
                """);
        assertThat(tools.execute("tmux_list", args(), next, null).output())
                .isEqualTo("no tmux session is running; start a program with tmux_new\n");
        assertThat(tools.execute("shell", args("command", "pwd; echo $MODE; test -e /tmp/scratch || echo no "
                + "scratch"), next, null).output()).isEqualTo("/workspace/src\ndebug\nno scratch\nexit code: 0");
    }

    @Test
    void without_a_sandbox_backend_it_fails_with_a_clear_message() {
        try (Sandboxes none = new Sandboxes(SandboxConfig.defaults().withBackend(SandboxConfig.Backend.BUBBLEWRAP)
                .withBwrapPath("/nonexistent/bwrap"))) {
            ToolOutcome outcome = new ToolExecutor(SandboxSettings.defaults(), none).execute("restart_terminal", args(),
                    ws, null);

            assertThat(outcome.ok()).isFalse();
            assertThat(outcome.error()).startsWith("the sandbox is not available: no sandbox backend is available "
                    + "(bubblewrap): bubblewrap (/nonexistent/bwrap) is not installed");
        }
    }
}
