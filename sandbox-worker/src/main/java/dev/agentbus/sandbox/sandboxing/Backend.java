package dev.agentbus.sandbox.sandboxing;

import java.nio.file.Path;

/**
 * The backend a worker runs its sandboxes on, chosen once at start ({@link BackendChoice}): Docker, bubblewrap,
 * the unsafe host mode, or none (every command refused, with the reason). Each knows how to make a sandbox and
 * what it can offer. A fifth, pods through the Kubernetes API ({@link KubernetesBackend}), is built and tested but
 * not chosen yet.
 */
sealed interface Backend permits DockerBackend, BubblewrapBackend, HostBackend, KubernetesBackend, Unavailable {

    /** {@code docker}, {@code bubblewrap}, {@code host} or {@code none}: what the worker reports. */
    String name();

    /** A new sandbox for {@code key} around {@code workspace}; its shell is not started yet. */
    SandboxHost newHost(SandboxKey key, Path workspace) throws SandboxException;

    /** Whether a sandbox's number of processes is capped (a fork bomb stops at the limit). */
    boolean limitsProcesses();

    /** Whether a sandbox can be started before its session is known and handed to one later (the warm pool). */
    boolean canPool();

    /** Frees what the backend holds (the engine connection, this worker's control groups). */
    void close();
}
