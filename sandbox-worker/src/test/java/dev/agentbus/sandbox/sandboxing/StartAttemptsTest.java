package dev.agentbus.sandbox.sandboxing;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Retrying a sandbox start: bounded, with a growing pause, the sandbox cleared between tries. */
class StartAttemptsTest {
    private final List<String> happened = new ArrayList<>();
    private final StartAttempts threeTries = new StartAttempts(3, Duration.ofMillis(200),
            pause -> happened.add("pause " + pause.toMillis()));

    @Test
    void a_start_that_works_at_once_is_neither_cleared_nor_paused() throws Exception {
        String started = threeTries.run("docker", "shell", () -> "shell", () -> happened.add("clear"));

        assertThat(started).isEqualTo("shell");
        assertThat(happened).isEmpty();
    }

    @Test
    void a_start_that_fails_for_a_moment_is_cleared_and_tried_again_after_a_growing_pause() throws Exception {
        int[] tries = {0};

        String started = threeTries.run("docker", "shell", () -> {
            if (++tries[0] < 3) {
                throw new SandboxException("read init-p: connection reset by peer");
            }
            return "shell";
        }, () -> happened.add("clear"));

        assertThat(started).isEqualTo("shell");
        assertThat(happened).containsExactly("clear", "pause 200", "clear", "pause 800");
    }

    @Test
    void a_start_that_keeps_failing_ends_with_an_error_naming_the_backend_and_what_was_said() {
        assertThatThrownBy(() -> threeTries.run("bubblewrap", "shell", () -> {
            throw new SandboxException("bwrap: Creating new namespace failed");
        }, () -> happened.add("clear")))
                .isInstanceOf(SandboxException.class)
                .hasMessage("the bubblewrap sandbox's shell did not start (3 attempts): bwrap: Creating new namespace "
                        + "failed");
        assertThat(happened).containsExactly("clear", "pause 200", "clear", "pause 800");
    }

    @Test
    void a_clearing_that_fails_does_not_stop_the_next_try() throws Exception {
        int[] tries = {0};

        String started = threeTries.run("docker", "container", () -> {
            if (++tries[0] == 1) {
                throw new SandboxException("engine busy");
            }
            return "container";
        }, () -> {
            throw new SandboxException("could not restart the sandbox container");
        });

        assertThat(started).isEqualTo("container");
        assertThat(tries[0]).isEqualTo(2);
    }

    @Test
    void fewer_than_one_attempt_is_a_configuration_error() {
        assertThatThrownBy(() -> new StartAttempts(0, Duration.ZERO, pause -> { }))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at least one attempt");
    }
}
