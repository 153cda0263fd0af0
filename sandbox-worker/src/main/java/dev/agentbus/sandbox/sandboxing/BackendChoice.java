package dev.agentbus.sandbox.sandboxing;

import java.util.Locale;
import java.util.function.Supplier;

/**
 * Which backend a worker runs sandboxes on, from the configuration and what the machine has. The machine is asked
 * through probes, and only what the configuration needs is probed (no engine is contacted for
 * {@code bubblewrap}, bubblewrap is not looked at when Docker answers under {@code auto}); so every combination is
 * tested with stand-in probes, no engine needed.
 *
 * @param backend          the backend to use
 * @param dockerPassedOver why {@code auto} did not take Docker though another backend is used, or null: an
 *                         operator who expects containers should not have to guess
 */
record BackendChoice(Backend backend, String dockerPassedOver) {

    /** What probing one backend found: the backend, ready to use, or why it cannot be used. */
    record Probe(Backend usable, String problem) {
        static Probe found(Backend backend) {
            return new Probe(backend, null);
        }

        static Probe missing(String problem) {
            return new Probe(null, problem);
        }
    }

    /**
     * Probes the machine as {@code config} asks and chooses; {@code pods} is where the Kubernetes backend makes its
     * pods, or null where that backend is not configured.
     */
    static BackendChoice choose(SandboxConfig config, PodSandboxConfig pods) {
        return choose(config.backend(), config.unsafeHost(), () -> DockerBackend.probe(config),
                () -> BubblewrapBackend.probe(config), () -> KubernetesBackend.probe(config, pods));
    }

    static BackendChoice choose(SandboxConfig.Backend configured, boolean unsafeHost, Supplier<Probe> docker,
                                Supplier<Probe> bubblewrap) {
        return choose(configured, unsafeHost, docker, bubblewrap,
                () -> Probe.missing("the Kubernetes backend is not configured"));
    }

    /**
     * {@code auto} never tries Kubernetes: a worker that happens to run in a pod with an API token mounted should
     * not start making pods unless the operator said so (it needs RBAC and a workspace claim).
     */
    static BackendChoice choose(SandboxConfig.Backend configured, boolean unsafeHost, Supplier<Probe> docker,
                                Supplier<Probe> bubblewrap, Supplier<Probe> kubernetes) {
        if (unsafeHost) {
            return new BackendChoice(new HostBackend(), null);
        }
        return switch (configured) {
            case DOCKER -> only(configured, docker.get());
            case BUBBLEWRAP -> only(configured, bubblewrap.get());
            case KUBERNETES -> only(configured, kubernetes.get());
            case AUTO -> {
                Probe first = docker.get();
                if (first.usable() != null) {
                    yield new BackendChoice(first.usable(), null);
                }
                Probe second = bubblewrap.get();
                yield second.usable() != null ? new BackendChoice(second.usable(), first.problem())
                        : none(configured, first.problem() + " and " + second.problem());
            }
        };
    }

    private static BackendChoice only(SandboxConfig.Backend configured, Probe probe) {
        return probe.usable() != null ? new BackendChoice(probe.usable(), null) : none(configured, probe.problem());
    }

    private static BackendChoice none(SandboxConfig.Backend configured, String why) {
        return new BackendChoice(new Unavailable("no sandbox backend is available (" + configured.name()
                .toLowerCase(Locale.ROOT) + "): " + why + "; install one, or set " + SandboxConfig.UNSAFE_HOST_ENV
                + "=true to run commands directly on the host (unsafe)"), null);
    }
}
