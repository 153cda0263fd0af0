package dev.agentbus.sandbox.tools;

import dev.agentbus.events.session.ShellState;
import dev.agentbus.sandbox.safety.SafetyPolicy;
import dev.agentbus.sandbox.sandboxing.SandboxSpec;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;

import static dev.agentbus.sandbox.tools.Json.args;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The safety layer in front of every tool, through the executor: a refused call runs nothing and comes back as a
 * refusal (which the worker records as {@code tool_call.completed.v1} with {@code refusal} set).
 */
class SafetyLayerIT extends SandboxedToolsIT {
    private ToolOutcome shell(String command) {
        return call("shell", "command", command);
    }

    @Test
    void a_blocked_shell_command_is_refused_with_the_reason_and_nothing_of_the_line_runs() {
        ToolOutcome outcome = shell("touch ran.txt; sudo id");

        assertThat(outcome.ok()).isFalse();
        assertThat(outcome.refusal()).isEqualTo("'sudo' is on this worker's list of blocked commands "
                + "(agentbus.sandbox.blocked-commands); do the task without it");
        assertThat(outcome.error()).isEqualTo("refused: " + outcome.refusal());
        assertThat(outcome.output()).isEmpty();
        assertThat(ws.resolve("ran.txt")).doesNotExist();
    }

    @Test
    void a_shell_command_naming_a_path_outside_the_workspace_is_refused() {
        ToolOutcome outcome = shell("cp secrets.txt /tmp/../etc/x && touch ran.txt");

        assertThat(outcome.refusal()).startsWith("'/tmp/../etc/x' is outside the workspace");
        assertThat(ws.resolve("ran.txt")).doesNotExist();
    }

    @Test
    void an_ordinary_command_passes_the_check_and_runs() {
        ToolOutcome outcome = shell("touch ran.txt && ls /workspace > /dev/null");

        assertThat(outcome.refusal()).isNull();
        assertThat(outcome.ok()).as(outcome.forModel()).isTrue();
        assertThat(ws.resolve("ran.txt")).exists();
    }

    @Test
    void dot_dot_is_judged_from_the_shells_recorded_working_directory() throws IOException {
        Files.createDirectories(ws.resolve("sub"));
        SandboxSpec inSub = TestSandboxes.session(ws, new ShellState("/workspace/sub", Map.of()));
        SandboxSpec atRoot = TestSandboxes.session(ws, ShellState.INITIAL);

        assertThat(tools.execute("shell", args("command", "cat ../notes.txt"), inSub, null).refusal()).isNull();
        assertThat(tools.execute("shell", args("command", "cat ../notes.txt"), atRoot, null).refusal())
                .startsWith("'../notes.txt' is outside the workspace");
    }

    @Test
    void what_tmux_would_start_or_type_is_checked_like_a_shell_command() {
        assertThat(tools.execute("tmux_new", args("command", "sudo -s"), spec, null).refusal()).contains("'sudo'");
        assertThat(tools.execute("vm_input", args("data", "cat /etc/shadow"), spec, null).refusal())
                .contains("'/etc/shadow'");
        assertThat(tools.execute("tmux_list", args(), spec, null).output())
                .isEqualTo("no tmux session is running; start a program with tmux_new\n");
    }

    @Test
    void the_blocked_list_is_configurable() {
        ToolExecutor custom = new ToolExecutor(SandboxSettings.defaults().withSafety(
                new SafetyPolicy(List.of("curl"), true, SafetyPolicy.DEFAULT_ALLOWED_PATHS)), sandboxes);

        assertThat(custom.execute("shell", args("command", "curl -O http://x"), spec, null).refusal())
                .startsWith("'curl' is on this worker's list of blocked commands");
        assertThat(custom.execute("shell", args("command", "touch sudo-is-not-blocked-here"), spec, null).refusal())
                .isNull();
    }
}
