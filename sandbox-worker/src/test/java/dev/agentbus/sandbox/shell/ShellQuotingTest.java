package dev.agentbus.sandbox.shell;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ShellQuotingTest {
    @Test
    void every_word_is_single_quoted_and_a_quote_is_closed_escaped_and_reopened() {
        assertThat(ShellQuoting.command(List.of("echo", "it's", "$HOME; rm -rf /")))
                .isEqualTo("'echo' 'it'\\''s' '$HOME; rm -rf /'");
    }

    @Test
    void nul_cannot_be_quoted() {
        assertThatThrownBy(() -> ShellQuoting.quote("a\0b")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void variable_names_follow_the_shell_rules() {
        assertThat(ShellQuoting.isVariableName("_OK1")).isTrue();
        assertThat(ShellQuoting.isVariableName("1NO")).isFalse();
        assertThat(ShellQuoting.isVariableName("NO-DASH")).isFalse();
    }
}
