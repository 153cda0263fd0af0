package dev.agentbus.sandbox.tools;

import dev.agentbus.sandbox.commands.CommandRules;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.util.List;

import static dev.agentbus.sandbox.tools.Json.args;
import static org.assertj.core.api.Assertions.assertThat;

/** The structured command mode, run in a real bubblewrap sandbox. */
class RunCommandToolIT extends SandboxedToolsIT {
    private ToolOutcome run(Object... keysAndValues) {
        return call("run_command", keysAndValues);
    }

    @Test
    void arguments_reach_the_program_exactly_as_given_with_no_shell_in_between() {
        ToolOutcome outcome = run("command", "printf", "args", List.of("%s\\n", "a b", "$HOME", "*", "x;y"));

        assertThat(outcome.ok()).as(outcome.forModel()).isTrue();
        assertThat(outcome.output()).isEqualTo("a b\n$HOME\n*\nx;y\nexit code: 0");
    }

    @Test
    void it_runs_in_the_given_directory_of_the_workspace() throws IOException {
        Files.createDirectories(ws.resolve("sub/dir"));

        assertThat(run("command", "pwd", "cwd", "sub/dir").output()).isEqualTo("/workspace/sub/dir\nexit code: 0");
        assertThat(run("command", "pwd", "cwd", "../..").refusal()).isEqualTo("path escapes the workspace: ../..");
    }

    @Test
    void a_dry_run_checks_and_tells_but_runs_nothing() {
        ToolOutcome outcome = run("command", "touch", "args", List.of("made.txt"), "dry_run", true);

        assertThat(outcome.ok()).isTrue();
        assertThat(outcome.output()).isEqualTo("dry run, nothing was run: touch made.txt would run in /workspace "
                + "with a time-out of 30 s; it passes the allow and deny lists and the safety checks\n");
        assertThat(ws.resolve("made.txt")).doesNotExist();
    }

    @Test
    void a_dry_run_of_a_refused_command_reports_the_refusal() {
        ToolOutcome outcome = run("command", "ls", "args", List.of("|", "wc"), "dry_run", true);

        assertThat(outcome.ok()).isFalse();
        assertThat(outcome.refusal()).startsWith("run_command runs one program without a shell");
    }

    @Test
    void the_allow_and_deny_lists_are_applied_before_anything_runs() {
        ToolExecutor onlyLs = new ToolExecutor(SandboxSettings.defaults()
                .withCommands(new CommandRules(List.of("ls"), List.of())), sandboxes);

        ToolOutcome outcome = onlyLs.execute("run_command", args("command", "touch", "args", List.of("x")), spec,
                null);

        assertThat(outcome.refusal()).startsWith("'touch' is not on this worker's list of programs allowed");
        assertThat(ws.resolve("x")).doesNotExist();
        assertThat(run("command", "bash", "args", List.of("-c", "touch x")).refusal())
                .startsWith("'bash' is denied in run_command");
        assertThat(ws.resolve("x")).doesNotExist();
    }

    @Test
    void a_non_zero_exit_is_information_and_a_time_out_is_a_failure() {
        ToolOutcome missing = run("command", "ls", "args", List.of("no-such-file"));
        ToolOutcome slow = run("command", "sleep", "args", List.of("10"), "timeout_seconds", 1);

        assertThat(missing.ok()).isTrue();
        assertThat(missing.output()).contains("no-such-file").endsWith("exit code: 2");
        assertThat(slow.ok()).isFalse();
        assertThat(slow.error()).startsWith("command timed out after 1 s");
    }

    @Test
    void a_wrongly_typed_argument_list_fails_with_a_message() {
        assertThat(run("command", "ls", "args", List.of(1, 2)).error())
                .isEqualTo("argument 'args' must be an array of strings; element 0 is number");
    }
}
