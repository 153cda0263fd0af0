package dev.agentbus.sandbox.safety;

import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class CommandSafetyTest {
    private final CommandSafety safety = new CommandSafety(SafetyPolicy.defaults(), List.of());

    private String refusal(String line) {
        return safety.checkShellLine(line, "/workspace").orElse(null);
    }

    @Nested
    class BlockedCommands {
        @Test
        void a_blocked_command_is_refused_with_the_entry_and_the_setting_named() {
            assertThat(refusal("sudo apt-get install x")).isEqualTo("'sudo' is on this worker's list of blocked "
                    + "commands (agentbus.sandbox.blocked-commands); do the task without it");
        }

        @Test
        void it_is_found_wherever_it_hides_in_the_line() {
            assertThat(refusal("ls && sudo id")).contains("'sudo'");
            assertThat(refusal("echo $(sudo id)")).contains("'sudo'");
            assertThat(refusal("FOO=1 /usr/bin/sudo id")).contains("'sudo'");
            assertThat(refusal("env -i PATH=/usr/bin sudo id")).contains("'sudo'");
            assertThat(refusal("timeout 5 nohup nice -n 10 sudo id")).contains("'sudo'");
            assertThat(refusal("bash -lc 'cd x; sudo id'")).contains("'sudo'");
            assertThat(refusal("eval \"sudo id\"")).contains("'sudo'");
            assertThat(refusal("find . -name x -exec sudo rm {} \\;")).contains("'sudo'");
            assertThat(refusal("if true; then reboot; fi")).contains("'reboot'");
            assertThat(refusal("echo x | xargs -n 1 sudo")).contains("'sudo'");
        }

        @Test
        void a_family_entry_and_an_entry_with_arguments_match_as_configured() {
            CommandSafety custom = new CommandSafety(new SafetyPolicy(List.of("mkfs*", "git push --force"), true,
                    SafetyPolicy.DEFAULT_ALLOWED_PATHS), List.of());

            assertThat(custom.checkShellLine("mkfs.ext4 disk.img", null)).get().asString().contains("'mkfs*'");
            assertThat(custom.checkShellLine("git push --force origin main", null)).get().asString()
                    .contains("'git push --force'");
            assertThat(custom.checkShellLine("git push origin main", null)).isEmpty();
        }

        @Test
        void words_that_merely_mention_a_blocked_command_are_fine() {
            assertThat(refusal("echo sudo; grep -r reboot docs; cat <<EOF\nsudo x\nEOF")).isNull();
        }

        @Test
        void an_argv_is_checked_the_same_way() {
            assertThat(safety.checkArgv(List.of("sudo", "ls"), null)).isPresent();
            assertThat(safety.checkArgv(List.of("ls", "-la"), null)).isEmpty();
        }
    }

    @Nested
    class WorkspaceOnlyPaths {
        @Test
        void absolute_paths_outside_the_workspace_are_refused_with_a_reason() {
            assertThat(refusal("cat /etc/passwd")).isEqualTo("'/etc/passwd' is outside the workspace: commands may "
                    + "only use paths under /workspace (and read-only system directories such as /usr); use a path "
                    + "inside the workspace");
        }

        @Test
        void redirections_options_assignments_and_dot_dot_are_all_checked() {
            assertThat(refusal("echo x > /etc/motd")).contains("'/etc/motd'");
            assertThat(refusal("tar --file=/root/x.tar -c .")).contains("'/root/x.tar'");
            assertThat(refusal("dd if=/dev/sda of=disk.img")).contains("'/dev/sda'");
            assertThat(refusal("cat ../../etc/passwd")).contains("'../../etc/passwd'");
            assertThat(refusal("cd /")).contains("'/'");
            assertThat(refusal("ls /workspace/../home")).contains("'/workspace/../home'");
        }

        @Test
        void the_workspace_system_directories_devices_and_tmp_are_fine() {
            assertThat(refusal("cd /workspace/src && /usr/bin/python3 ../run.py > /dev/null 2>&1; ls /tmp"))
                    .isNull();
            assertThat(refusal("git clone https://example.com/a/../b.git")).isNull();
        }

        @Test
        void dot_dot_is_resolved_from_the_shells_working_directory() {
            assertThat(safety.checkShellLine("cat ../x", "/workspace/sub")).isEmpty();
            assertThat(safety.checkShellLine("cat ../x", "/workspace")).isPresent();
        }

        @Test
        void the_workspaces_host_location_counts_as_the_workspace_in_unsafe_host_mode() {
            CommandSafety host = new CommandSafety(SafetyPolicy.defaults(), List.of("/srv/ws/u/s"));

            assertThat(host.checkShellLine("cat /srv/ws/u/s/a.txt", "/srv/ws/u/s")).isEmpty();
            assertThat(host.checkShellLine("cat /srv/ws/u/other/a.txt", "/srv/ws/u/s")).isPresent();
        }

        @Test
        void the_policy_can_be_switched_off() {
            CommandSafety off = new CommandSafety(SafetyPolicy.off(), List.of());

            assertThat(off.checkShellLine("sudo cat /etc/shadow", null)).isEmpty();
        }
    }

    @Test
    void a_line_that_cannot_be_read_is_refused_rather_than_run_unchecked() {
        assertThat(refusal("echo \"unclosed")).startsWith("the command line cannot be checked because a double "
                + "quote is not closed");
    }

    @Test
    void configuration_lists_fall_back_when_unset_and_can_be_emptied() {
        assertThat(SafetyPolicy.parseList("", List.of("a"))).containsExactly("a");
        assertThat(SafetyPolicy.parseList("none", List.of("a"))).isEmpty();
        assertThat(SafetyPolicy.parseList(" sudo , git push --force ,", List.of())).containsExactly("sudo",
                "git push --force");
    }
}
