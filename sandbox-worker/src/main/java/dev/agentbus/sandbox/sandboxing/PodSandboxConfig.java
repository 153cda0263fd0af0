package dev.agentbus.sandbox.sandboxing;

import java.nio.file.Path;
import java.time.Duration;

/**
 * Where and how the pod backend makes its pods: the worker's {@code agentbus.sandbox.kubernetes.*} settings.
 *
 * @param namespace     the namespace of the sandbox pods (the worker's own, so the NetworkPolicies of
 *                      deploy/k8s/base apply to them)
 * @param claimName     the PersistentVolumeClaim that holds every workspace, the one the workers mount
 * @param workspaceRoot where the workers mount that claim; a workspace's path below it is the pod's {@code subPath}
 * @param runtimeClass  a RuntimeClass for a stronger isolation (gVisor's {@code gvisor}, Kata's {@code kata}), or
 *                      blank for the cluster's default runtime
 * @param readyTimeout  how long a new pod may take to be ready (pulling the image included)
 */
public record PodSandboxConfig(String namespace, String claimName, Path workspaceRoot, String runtimeClass,
                        Duration readyTimeout) {
    public PodSandboxConfig {
        if (namespace == null || namespace.isBlank() || claimName == null || claimName.isBlank()
                || workspaceRoot == null || readyTimeout == null || readyTimeout.isNegative()) {
            throw new IllegalArgumentException("a pod sandbox needs a namespace, a workspace claim and its mount");
        }
        runtimeClass = runtimeClass == null ? "" : runtimeClass.trim();
    }

    /** Where Kubernetes tells a pod its own namespace. */
    public static final String SERVICE_ACCOUNT_NAMESPACE = "/var/run/secrets/kubernetes.io/serviceaccount/namespace";

    /**
     * The configured namespace, or else the worker's own (so the NetworkPolicies of its namespace cover the sandbox
     * pods), or else {@code default} outside a cluster.
     */
    public static String namespaceOrOwn(String configured, Path ownNamespaceFile) {
        if (configured != null && !configured.isBlank()) {
            return configured.trim();
        }
        try {
            String own = java.nio.file.Files.readString(ownNamespaceFile).trim();
            return own.isEmpty() ? "default" : own;
        } catch (java.io.IOException | SecurityException notInAPod) {
            return "default";
        }
    }
}
