package dev.agentbus.sandbox.sandboxing;

import org.junit.jupiter.api.Test;

import static dev.agentbus.sandbox.sandboxing.SandboxConfig.Backend.AUTO;
import static dev.agentbus.sandbox.sandboxing.SandboxConfig.Backend.BUBBLEWRAP;
import static dev.agentbus.sandbox.sandboxing.SandboxConfig.Backend.DOCKER;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Which backend the worker picks: given what the machine has, when configured so, then this. */
class BackendChoiceTest {
    private static final String NO_ENGINE = "no Docker engine answers";
    private static final String NO_BWRAP = "bubblewrap (bwrap) is not installed";

    @Test
    void auto_prefers_docker_then_bubblewrap() {
        assertThat(BackendChoice.choose(AUTO, false, null, null).backend()).isEqualTo("docker");
        assertThat(BackendChoice.choose(AUTO, false, NO_ENGINE, null).backend()).isEqualTo("bubblewrap");
    }

    @Test
    void auto_with_neither_refuses_and_says_both_reasons_and_the_way_out() {
        BackendChoice choice = BackendChoice.choose(AUTO, false, NO_ENGINE, NO_BWRAP);

        assertThat(choice.backend()).isEqualTo("none");
        assertThat(choice.unavailable()).isEqualTo("no sandbox backend is available (auto): no Docker engine "
                + "answers and bubblewrap (bwrap) is not installed; install one, or set "
                + "AGENTBUS_SANDBOX_UNSAFE_HOST=true to run commands directly on the host (unsafe)");
    }

    @Test
    void a_named_backend_is_used_or_refused_never_replaced() {
        assertThat(BackendChoice.choose(DOCKER, false, NO_ENGINE, null).backend()).isEqualTo("none");
        assertThat(BackendChoice.choose(DOCKER, false, null, NO_BWRAP).backend()).isEqualTo("docker");
        assertThat(BackendChoice.choose(BUBBLEWRAP, false, null, NO_BWRAP).backend()).isEqualTo("none");
        assertThat(BackendChoice.choose(BUBBLEWRAP, false, NO_ENGINE, null).backend()).isEqualTo("bubblewrap");
        assertThat(BackendChoice.choose(DOCKER, false, null, null).unavailable()).isNull();
    }

    @Test
    void unsafe_host_mode_wins_over_everything() {
        assertThat(BackendChoice.choose(DOCKER, true, NO_ENGINE, NO_BWRAP)).isEqualTo(new BackendChoice("host", null));
    }

    @Test
    void a_misspelt_backend_is_a_clear_configuration_error() {
        assertThatThrownBy(() -> SandboxConfig.Backend.parse("dokcer")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("agentbus.sandbox.backend must be auto, docker or bubblewrap, got 'dokcer'");
        assertThat(SandboxConfig.Backend.parse(" Docker ")).isEqualTo(DOCKER);
    }
}
