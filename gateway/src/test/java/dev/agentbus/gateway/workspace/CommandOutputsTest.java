package dev.agentbus.gateway.workspace;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class CommandOutputsTest {

    @Test
    void the_exit_code_is_the_last_exit_code_line() {
        assertThat(CommandOutputs.exitCode("hi\nexit code: 0")).isEqualTo(0);
        assertThat(CommandOutputs.exitCode("exit code: 3 was printed by the program\nexit code: 2\n"
                + "[timeout_seconds 500 was clamped to 120]")).isEqualTo(2);
        assertThat(CommandOutputs.exitCode("killed\nexit code: -9")).isEqualTo(-9);
    }

    @Test
    void without_one_there_is_none() {
        assertThat(CommandOutputs.exitCode("started\n")).isNull();
        assertThat(CommandOutputs.exitCode(null)).isNull();
        assertThat(CommandOutputs.exitCode("exit code: 99999999999")).isNull();
    }
}
