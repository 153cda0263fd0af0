package dev.agentbus.sandbox.commands;

import dev.agentbus.sandbox.safety.CommandSafety;
import dev.agentbus.sandbox.safety.SafetyPolicy;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

class StructuredCommandTest {
    private final CommandSafety safety = new CommandSafety(SafetyPolicy.defaults(), List.of());

    private Optional<String> check(CommandRules rules, String command, String... args) {
        return StructuredCommand.check(command, List.of(args), rules, safety, "/workspace");
    }

    @Test
    void a_program_with_plain_arguments_may_run() {
        assertThat(check(CommandRules.defaults(), "ls", "-la", "src")).isEmpty();
        assertThat(check(CommandRules.defaults(), "./build.sh", "--fast")).isEmpty();
        assertThat(check(CommandRules.defaults(), "grep", "-E", "a|b", "f.txt")).isEmpty();
    }

    @Test
    void shell_operators_are_refused_because_there_is_no_shell() {
        assertThat(check(CommandRules.defaults(), "ls", "|", "grep", "x")).get().asString()
                .startsWith("run_command runs one program without a shell, so '|' would reach ls as a plain argument");
        assertThat(check(CommandRules.defaults(), "echo", "x", ">", "f")).isPresent();
        assertThat(check(CommandRules.defaults(), "make", "&&", "make", "install")).isPresent();
    }

    @Test
    void a_command_line_in_the_command_field_is_refused() {
        assertThat(check(CommandRules.defaults(), "ls -la")).get().asString()
                .startsWith("'ls -la' is not a program name");
        assertThat(check(CommandRules.defaults(), "../../bin/x")).isPresent();
    }

    @Test
    void the_allow_list_when_set_admits_only_its_programs() {
        CommandRules rules = new CommandRules(List.of("git", "ls"), List.of());

        assertThat(check(rules, "git", "status")).isEmpty();
        assertThat(check(rules, "rm", "-rf", "x")).get().asString()
                .isEqualTo("'rm' is not on this worker's list of programs allowed in run_command "
                        + "(agentbus.sandbox.commands.allow): git, ls");
    }

    @Test
    void shells_and_program_runners_are_denied_by_default() {
        assertThat(check(CommandRules.defaults(), "bash", "-c", "ls | wc")).get().asString()
                .startsWith("'bash' is denied in run_command (agentbus.sandbox.commands.deny): it would run a "
                        + "command line");
        assertThat(check(CommandRules.defaults(), "env", "ls")).isPresent();
    }

    @Test
    void the_safety_layer_applies_too() {
        assertThat(check(CommandRules.defaults(), "sudo", "ls")).get().asString().contains("blocked commands");
        assertThat(check(CommandRules.defaults(), "cat", "/etc/shadow")).get().asString()
                .contains("outside the workspace");
    }
}
