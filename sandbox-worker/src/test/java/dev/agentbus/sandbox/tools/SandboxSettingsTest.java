package dev.agentbus.sandbox.tools;

import dev.agentbus.sandbox.commands.CommandRules;
import dev.agentbus.sandbox.safety.SafetyPolicy;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The safety, structured-mode, transfer and backup settings as SandboxRuntime reads them from configuration. */
class SandboxSettingsTest {
    private static final long MIB = 1024 * 1024;

    @Test
    void unset_keys_give_the_defaults() {
        SandboxSettings s = SandboxSettings.defaults().withConfiguration("", true, "", "", "", 512 * 1024, 100,
                64 * MIB);

        assertThat(s.safety()).isEqualTo(SafetyPolicy.defaults());
        assertThat(s.commands()).isEqualTo(CommandRules.defaults());
        assertThat(s).isEqualTo(SandboxSettings.defaults());
    }

    @Test
    void lists_are_comma_separated_and_none_empties_them() {
        SandboxSettings s = SandboxSettings.defaults().withConfiguration("sudo, git push --force", false,
                "/tmp,/opt/tools", "git,ls", "none", 1000, 5, 2 * MIB);

        assertThat(s.safety()).isEqualTo(new SafetyPolicy(List.of("sudo", "git push --force"), false,
                List.of("/tmp", "/opt/tools")));
        assertThat(s.commands()).isEqualTo(new CommandRules(List.of("git", "ls"), List.of()));
        assertThat(s.transferMaxBytes()).isEqualTo(1000);
        assertThat(s.backupsKept()).isEqualTo(5);
    }

    @Test
    void values_that_cannot_work_stop_the_worker_at_start_up() {
        SandboxSettings d = SandboxSettings.defaults();

        assertThatThrownBy(() -> d.withConfiguration("", true, "tmp", "", "", 1000, 5, 2 * MIB))
                .hasMessage("allowed paths must be absolute, got 'tmp'");
        assertThatThrownBy(() -> d.withTransferMaxBytes(MIB)).hasMessageStartingWith("transferMaxBytes must be "
                + "between 1 and 716800 (it travels base64-encoded in one Kafka record of at most 1 MiB)");
        assertThatThrownBy(() -> d.withBackups(0, 64 * MIB)).hasMessage("backupsKept must be at least 1, got 0");
        assertThatThrownBy(() -> d.withBackups(5, 10)).hasMessageStartingWith("backupMaxBytes must be at least");
    }
}
