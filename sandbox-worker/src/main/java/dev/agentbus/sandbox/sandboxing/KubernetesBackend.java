package dev.agentbus.sandbox.sandboxing;

import io.fabric8.kubernetes.client.KubernetesClient;

import java.nio.file.Path;

/**
 * Sandboxes as pods: one pod per session, made through the Kubernetes API ({@link KubernetesHost}), with the
 * configured RuntimeClass (gVisor, Kata) where the cluster has one. Pooled pods wait like pooled containers: the
 * provider's {@link SandboxPool} starts them ahead with an empty workspace and hands one to the next session.
 *
 * <p>Not chosen by the worker yet ({@link BackendChoice} knows only Docker and bubblewrap): it is tested against a
 * Kubernetes API, not a cluster, and the worker's settings for it (namespace, claim, RuntimeClass) come when it is
 * wired in. Per-user sandboxes ({@code agentbus.sandbox.scope=user}) stay a Docker feature: every session gets its
 * own pod.
 */
record KubernetesBackend(KubernetesClient client, SandboxConfig config, PodSandboxConfig pods,
                         SandboxPods sandboxPods) implements Backend {

    KubernetesBackend(KubernetesClient client, SandboxConfig config, PodSandboxConfig pods) {
        this(client, config, pods, new SandboxPods(client, config, pods));
    }

    @Override
    public String name() {
        return "kubernetes";
    }

    @Override
    public SandboxHost newHost(SandboxKey key, Path workspace) throws SandboxException {
        return KubernetesHost.create(client, sandboxPods, pods.namespace(), key, workspace);
    }

    /** A pod's process count is the node's setting (the kubelet's podPidsLimit), not one this backend sets. */
    @Override
    public boolean limitsProcesses() {
        return false;
    }

    @Override
    public boolean canPool() {
        return true;
    }

    /** Removes the pods a previous run of this worker left. */
    int removeLeftovers() {
        return sandboxPods.removeLeftovers();
    }

    @Override
    public void close() {
        client.close();
    }
}
