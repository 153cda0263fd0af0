package dev.agentbus.sandbox.sandboxing;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;

import java.nio.file.Path;

/**
 * Sandboxes as pods: one pod per session, made through the Kubernetes API ({@link KubernetesHost}), with the
 * configured RuntimeClass (gVisor, Kata) where the cluster has one. Pooled pods wait like pooled containers: the
 * provider's {@link SandboxPool} starts them ahead with an empty workspace and hands one to the next session.
 *
 * <p>Chosen with {@code agentbus.sandbox.backend=kubernetes} ({@link BackendChoice}), never by {@code auto}. It is
 * tested against fabric8's mock Kubernetes API, not a cluster. Per-user sandboxes ({@code agentbus.sandbox.scope=user})
 * stay a Docker feature: every session gets its own pod.
 */
record KubernetesBackend(KubernetesClient client, SandboxConfig config, PodSandboxConfig pods,
                         SandboxPods sandboxPods) implements Backend {

    KubernetesBackend(KubernetesClient client, SandboxConfig config, PodSandboxConfig pods) {
        this(client, config, pods, new SandboxPods(client, config, pods));
    }

    /**
     * The backend, if the Kubernetes API answers: the client finds its cluster as kubectl does (in a pod, the service
     * account's token and the API's address from the environment; elsewhere the kubeconfig), and one list of the
     * namespace's sandbox pods proves both that the API answers and that the worker may list pods there.
     */
    static BackendChoice.Probe probe(SandboxConfig config, PodSandboxConfig pods) {
        if (pods == null) {
            return BackendChoice.Probe.missing("the Kubernetes backend is not configured");
        }
        return probe(new KubernetesClientBuilder().build(), config, pods);
    }

    static BackendChoice.Probe probe(KubernetesClient client, SandboxConfig config, PodSandboxConfig pods) {
        try {
            client.pods().inNamespace(pods.namespace()).withLabel("app.kubernetes.io/component", "sandbox").list();
            return BackendChoice.Probe.found(new KubernetesBackend(client, config, pods));
        } catch (RuntimeException e) {
            client.close();
            return BackendChoice.Probe.missing("the Kubernetes API at " + client.getMasterUrl()
                    + " did not let this worker list pods in namespace " + pods.namespace() + ": " + e.getMessage());
        }
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
