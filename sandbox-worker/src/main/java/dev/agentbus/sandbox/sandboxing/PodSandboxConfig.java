package dev.agentbus.sandbox.sandboxing;

import java.nio.file.Path;
import java.time.Duration;

/**
 * Where and how the pod backend makes its pods. Not settings yet: the backend is not one the worker chooses
 * ({@link BackendChoice}), so nothing reads these from the environment until it is.
 *
 * @param namespace     the namespace of the sandbox pods (the worker's own, so the NetworkPolicies of
 *                      deploy/k8s/base apply to them)
 * @param claimName     the PersistentVolumeClaim that holds every workspace, the one the workers mount
 * @param workspaceRoot where the workers mount that claim; a workspace's path below it is the pod's {@code subPath}
 * @param runtimeClass  a RuntimeClass for a stronger isolation (gVisor's {@code gvisor}, Kata's {@code kata}), or
 *                      blank for the cluster's default runtime
 * @param readyTimeout  how long a new pod may take to be ready (pulling the image included)
 */
record PodSandboxConfig(String namespace, String claimName, Path workspaceRoot, String runtimeClass,
                        Duration readyTimeout) {
    PodSandboxConfig {
        if (namespace == null || namespace.isBlank() || claimName == null || claimName.isBlank()
                || workspaceRoot == null || readyTimeout == null || readyTimeout.isNegative()) {
            throw new IllegalArgumentException("a pod sandbox needs a namespace, a workspace claim and its mount");
        }
        runtimeClass = runtimeClass == null ? "" : runtimeClass.trim();
    }
}
