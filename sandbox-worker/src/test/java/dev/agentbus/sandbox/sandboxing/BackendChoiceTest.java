package dev.agentbus.sandbox.sandboxing;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

import static dev.agentbus.sandbox.sandboxing.SandboxConfig.Backend.AUTO;
import static dev.agentbus.sandbox.sandboxing.SandboxConfig.Backend.BUBBLEWRAP;
import static dev.agentbus.sandbox.sandboxing.SandboxConfig.Backend.DOCKER;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Which backend the worker picks: given what the machine has, when configured so, then this. */
class BackendChoiceTest {
    private static final String NO_ENGINE = "no Docker engine answers";
    private static final String NO_BWRAP = "bubblewrap (bwrap) is not installed";
    private static final SandboxConfig CONFIG = SandboxConfig.defaults();
    /** Stand-ins: the choice never uses the engine or the executable, it only hands the backend on. */
    private static final DockerBackend DOCKER_FOUND = new DockerBackend(null, CONFIG, new SharedContainers(CONFIG.dockerUid()));
    private static final BubblewrapBackend BWRAP_FOUND = new BubblewrapBackend(Path.of("/usr/bin/bwrap"), CONFIG,
            Optional.empty());

    private final List<String> probed = new ArrayList<>();

    private Supplier<BackendChoice.Probe> docker(String problem) {
        return () -> {
            probed.add("docker");
            return problem == null ? BackendChoice.Probe.found(DOCKER_FOUND) : BackendChoice.Probe.missing(problem);
        };
    }

    private Supplier<BackendChoice.Probe> bubblewrap(String problem) {
        return () -> {
            probed.add("bubblewrap");
            return problem == null ? BackendChoice.Probe.found(BWRAP_FOUND) : BackendChoice.Probe.missing(problem);
        };
    }

    @Test
    void auto_prefers_docker_then_bubblewrap_and_says_why_docker_was_passed_over() {
        assertThat(BackendChoice.choose(AUTO, false, docker(null), bubblewrap(null)))
                .isEqualTo(new BackendChoice(DOCKER_FOUND, null));
        assertThat(BackendChoice.choose(AUTO, false, docker(NO_ENGINE), bubblewrap(null)))
                .isEqualTo(new BackendChoice(BWRAP_FOUND, NO_ENGINE));
    }

    @Test
    void auto_with_neither_refuses_and_says_both_reasons_and_the_way_out() {
        BackendChoice choice = BackendChoice.choose(AUTO, false, docker(NO_ENGINE), bubblewrap(NO_BWRAP));

        assertThat(choice.backend().name()).isEqualTo("none");
        assertThat(choice.backend()).isEqualTo(new Unavailable("no sandbox backend is available (auto): no Docker "
                + "engine answers and bubblewrap (bwrap) is not installed; install one, or set "
                + "AGENTBUS_SANDBOX_UNSAFE_HOST=true to run commands directly on the host (unsafe)"));
    }

    @Test
    void a_named_backend_is_used_or_refused_never_replaced() {
        assertThat(BackendChoice.choose(DOCKER, false, docker(NO_ENGINE), bubblewrap(null)).backend())
                .isInstanceOf(Unavailable.class);
        assertThat(BackendChoice.choose(DOCKER, false, docker(null), bubblewrap(NO_BWRAP)).backend())
                .isSameAs(DOCKER_FOUND);
        assertThat(BackendChoice.choose(BUBBLEWRAP, false, docker(null), bubblewrap(NO_BWRAP)).backend())
                .isInstanceOf(Unavailable.class);
        assertThat(BackendChoice.choose(BUBBLEWRAP, false, docker(NO_ENGINE), bubblewrap(null)).backend())
                .isSameAs(BWRAP_FOUND);
    }

    @Test
    void only_the_backends_the_configuration_needs_are_probed() {
        BackendChoice.choose(BUBBLEWRAP, false, docker(null), bubblewrap(null));
        BackendChoice.choose(DOCKER, false, docker(null), bubblewrap(null));
        BackendChoice.choose(AUTO, false, docker(null), bubblewrap(null));
        BackendChoice.choose(DOCKER, true, docker(null), bubblewrap(null));

        assertThat(probed).containsExactly("bubblewrap", "docker", "docker");
    }

    @Test
    void kubernetes_is_used_only_when_named_and_never_probed_by_auto() {
        List<String> kubernetesProbes = new ArrayList<>();
        Supplier<BackendChoice.Probe> kubernetes = () -> {
            kubernetesProbes.add("kubernetes");
            return BackendChoice.Probe.missing("no API");
        };

        BackendChoice.choose(AUTO, false, docker(NO_ENGINE), bubblewrap(NO_BWRAP), kubernetes);
        assertThat(kubernetesProbes).as("auto does not try it").isEmpty();
        probed.clear();

        BackendChoice named = BackendChoice.choose(SandboxConfig.Backend.KUBERNETES, false, docker(null),
                bubblewrap(null), kubernetes);
        assertThat(kubernetesProbes).containsExactly("kubernetes");
        assertThat(probed).as("nor are the others when it is named").isEmpty();
        assertThat(named.backend()).as("refused, not replaced by another backend").isInstanceOf(Unavailable.class);
    }

    @Test
    void unsafe_host_mode_wins_over_everything() {
        assertThat(BackendChoice.choose(DOCKER, true, docker(NO_ENGINE), bubblewrap(NO_BWRAP)))
                .isEqualTo(new BackendChoice(new HostBackend(), null));
    }

    @Test
    void a_misspelt_backend_is_a_clear_configuration_error() {
        assertThatThrownBy(() -> SandboxConfig.Backend.parse("dokcer")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("agentbus.sandbox.backend must be auto, docker, bubblewrap or kubernetes, got 'dokcer'");
        assertThat(SandboxConfig.Backend.parse(" Docker ")).isEqualTo(DOCKER);
    }
}
