package dev.agentbus.sandbox.sandboxing;

import dev.agentbus.events.session.ShellState;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** From what a shell reports to what the log records, and back. Pure: no shell runs here. */
class ShellStatesTest {
    private static final Map<String, String> FRESH = Map.of("PATH", "/usr/bin:/bin", "HOME", "/workspace",
            "LANG", "C.UTF-8", "PWD", "/workspace");

    @Test
    void only_variables_that_differ_from_a_fresh_shell_are_recorded() {
        Map<String, String> exported = Map.of("PATH", "/workspace/bin:/usr/bin:/bin", "HOME", "/workspace",
                "LANG", "C.UTF-8", "PWD", "/workspace/src", "OLDPWD", "/workspace", "SHLVL", "1", "MODE", "fast");

        assertThat(ShellStates.changedFrom(FRESH, exported))
                .isEqualTo(Map.of("PATH", "/workspace/bin:/usr/bin:/bin", "MODE", "fast"));
    }

    @Test
    void secret_looking_variables_are_recorded_masked() {
        ShellState state = ShellStates.recordable("/workspace", Map.of("GITHUB_TOKEN", "abc123456789",
                "DB_PASSWORD", "hunter22", "KEY_IN_VALUE", "sk-abcdefghijklmnopqrstuvwx", "PLAIN", "hello",
                "MONKEY", "banana"));

        assertThat(state.env()).isEqualTo(Map.of("GITHUB_TOKEN", "[REDACTED]", "DB_PASSWORD", "[REDACTED]",
                "KEY_IN_VALUE", "[REDACTED]", "PLAIN", "hello", "MONKEY", "banana"));
    }

    @Test
    void the_restore_script_quotes_values_skips_masked_ones_and_falls_back_to_the_workspace() {
        String script = ShellStates.restoreScript("/workspace/it's", Map.of("A", "x'y", "TOKEN", "[REDACTED]",
                "PWD", "/elsewhere", "BAD-NAME", "z"), "/workspace");

        assertThat(script).isEqualTo("cd -- '/workspace/it'\\''s' 2>/dev/null || cd -- '/workspace'\n"
                + "export A='x'\\''y'\n");
    }

    @Test
    void in_host_mode_recorded_paths_are_translated_to_and_from_the_real_directory() {
        assertThat(ShellStates.toShellPath("/workspace/src", "/srv/ws/u/s")).isEqualTo("/srv/ws/u/s/src");
        assertThat(ShellStates.toShellPath("/workspace", "/srv/ws/u/s")).isEqualTo("/srv/ws/u/s");
        assertThat(ShellStates.toShellPath("/etc", "/srv/ws/u/s")).isEqualTo("/srv/ws/u/s");
        assertThat(ShellStates.toRecordedPath("/srv/ws/u/s/src", "/srv/ws/u/s")).isEqualTo("/workspace/src");
        assertThat(ShellStates.toRecordedPath("/srv/ws/u/s", "/srv/ws/u/s")).isEqualTo("/workspace");
        assertThat(ShellStates.toRecordedPath("/workspace/x", "/workspace")).isEqualTo("/workspace/x");
    }
}
