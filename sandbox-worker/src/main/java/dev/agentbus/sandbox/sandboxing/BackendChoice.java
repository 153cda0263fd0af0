package dev.agentbus.sandbox.sandboxing;

import java.util.Locale;

/**
 * Which backend a worker runs sandboxes on, from the configuration and what the machine has. Pure, so every
 * combination is tested without an engine (see {@link Sandboxes} for where the facts come from).
 *
 * @param backend     {@code docker}, {@code bubblewrap}, {@code host}, or {@code none}
 * @param unavailable with {@code none}, the refusal every command gets: what is missing and what to do; else null
 */
record BackendChoice(String backend, String unavailable) {

    /**
     * @param dockerProblem why Docker cannot be used (no engine, no image), or null when it can; not asked for
     *                      {@code bubblewrap} or in unsafe host mode
     * @param bwrapProblem  why bubblewrap cannot be used, or null when it can
     */
    static BackendChoice choose(SandboxConfig.Backend configured, boolean unsafeHost, String dockerProblem,
                                String bwrapProblem) {
        if (unsafeHost) {
            return new BackendChoice("host", null);
        }
        return switch (configured) {
            case DOCKER -> dockerProblem == null ? usable("docker") : none(configured, dockerProblem);
            case BUBBLEWRAP -> bwrapProblem == null ? usable("bubblewrap") : none(configured, bwrapProblem);
            case AUTO -> {
                if (dockerProblem == null) {
                    yield usable("docker");
                }
                yield bwrapProblem == null ? usable("bubblewrap")
                        : none(configured, dockerProblem + " and " + bwrapProblem);
            }
        };
    }

    private static BackendChoice usable(String backend) {
        return new BackendChoice(backend, null);
    }

    private static BackendChoice none(SandboxConfig.Backend configured, String why) {
        return new BackendChoice("none", "no sandbox backend is available (" + configured.name()
                .toLowerCase(Locale.ROOT) + "): " + why + "; install one, or set " + SandboxConfig.UNSAFE_HOST_ENV
                + "=true to run commands directly on the host (unsafe)");
    }
}
