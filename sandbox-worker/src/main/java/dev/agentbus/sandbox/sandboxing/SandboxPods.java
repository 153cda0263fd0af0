package dev.agentbus.sandbox.sandboxing;

import dev.agentbus.sandbox.shell.Bubblewrap;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;

import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * The sandbox pods themselves: what one looks like, making it and waiting until it runs, removing it. A pod is
 * as locked down as the Docker backend's container: not root, no capabilities, no privilege escalation, a
 * read-only root with a small {@code /tmp}, the runtime's seccomp profile, no service-account token, no service
 * links, its memory, CPU and process limits, and the session's workspace (a {@code subPath} of the workers' claim)
 * as the only writable file system that lasts. Its labels make deploy/k8s's NetworkPolicies cut it off from
 * everything (Kafka and PostgreSQL included).
 */
final class SandboxPods {
    static final String WORKER_LABEL = "agentbus.dev/sandbox-worker";
    static final String FOR_LABEL = "agentbus.dev/sandbox-for";
    private static final String CONTAINER = "sandbox";

    private final KubernetesClient client;
    private final SandboxConfig config;
    private final PodSandboxConfig pods;

    SandboxPods(KubernetesClient client, SandboxConfig config, PodSandboxConfig pods) {
        this.client = client;
        this.config = config;
        this.pods = pods;
    }

    String container() {
        return CONTAINER;
    }

    /** The pod for {@code key} around {@code workspace}, running as {@code owner}; not created yet. */
    Pod describe(String name, SandboxKey key, Path workspace, WorkspaceOwner owner) throws SandboxException {
        Path relative = pods.workspaceRoot().toAbsolutePath().normalize().relativize(workspace.toAbsolutePath()
                .normalize());
        if (relative.startsWith("..") || relative.toString().isEmpty()) {
            throw new SandboxException("the workspace " + workspace + " is not below the workers' claim, mounted at "
                    + pods.workspaceRoot());
        }
        SandboxConfig.Limits limits = config.limits();
        Quantity memory = new Quantity(Long.toString(limits.memoryBytes()));
        Quantity cpu = new Quantity(Math.max(1, Math.round(limits.cpus() * 1000)) + "m");
        return new PodBuilder()
                .withNewMetadata().withName(name).withNamespace(pods.namespace())
                .addToLabels(Map.of("app.kubernetes.io/part-of", "agentbus", "app.kubernetes.io/component", "sandbox",
                        "app.kubernetes.io/name", "sandbox", WORKER_LABEL, labelValue(config.workerId()),
                        FOR_LABEL, labelValue(key.toString())))
                .endMetadata()
                .withNewSpec()
                .withRuntimeClassName(pods.runtimeClass().isEmpty() ? null : pods.runtimeClass())
                .withRestartPolicy("Always")
                .withAutomountServiceAccountToken(false)
                .withEnableServiceLinks(false)
                .withHostname("sandbox")
                .withTerminationGracePeriodSeconds(0L)
                .withNewSecurityContext()
                .withRunAsNonRoot(true).withRunAsUser((long) owner.uid()).withRunAsGroup((long) owner.gid())
                .withNewSeccompProfile().withType("RuntimeDefault").endSeccompProfile()
                .endSecurityContext()
                .addNewContainer()
                .withName(CONTAINER).withImage(config.image()).withImagePullPolicy("IfNotPresent")
                .withCommand("/bin/sh", "-c", "trap '' HUP INT TERM; while :; do sleep 3600 & wait; done")
                .withWorkingDir(Bubblewrap.SANDBOX_WORKSPACE)
                .addNewEnv().withName("PATH").withValue(Bubblewrap.SANDBOX_PATH).endEnv()
                .addNewEnv().withName("HOME").withValue(Bubblewrap.SANDBOX_WORKSPACE).endEnv()
                .addNewEnv().withName("LANG").withValue("C.UTF-8").endEnv()
                .addNewEnv().withName("TMPDIR").withValue("/tmp").endEnv()
                .withNewSecurityContext()
                .withReadOnlyRootFilesystem(true).withAllowPrivilegeEscalation(false).withPrivileged(false)
                .withNewCapabilities().withDrop("ALL").endCapabilities()
                .endSecurityContext()
                .withNewResources()
                .addToRequests(Map.of("memory", memory, "cpu", cpu))
                .addToLimits(Map.of("memory", memory, "cpu", cpu))
                .endResources()
                .addNewVolumeMount().withName("workspace").withMountPath(Bubblewrap.SANDBOX_WORKSPACE)
                .withSubPath(relative.toString().replace('\\', '/')).endVolumeMount()
                .addNewVolumeMount().withName("tmp").withMountPath("/tmp").endVolumeMount()
                .endContainer()
                .addNewVolume().withName("workspace").withNewPersistentVolumeClaim()
                .withClaimName(pods.claimName()).endPersistentVolumeClaim().endVolume()
                .addNewVolume().withName("tmp").withNewEmptyDir().withMedium("Memory")
                .withSizeLimit(new Quantity(Math.max(16, limits.memoryBytes() / 4 / 1048576) + "Mi"))
                .endEmptyDir().endVolume()
                .endSpec()
                .build();
    }

    /** Creates the pod and waits until it is ready; removes it again if it does not get there in time. */
    void start(Pod pod) throws SandboxException {
        String name = pod.getMetadata().getName();
        try {
            client.pods().inNamespace(pods.namespace()).resource(pod).create();
        } catch (KubernetesClientException e) {
            throw new SandboxException("the Kubernetes API refused the sandbox pod: " + e.getMessage(), e);
        }
        try {
            client.pods().inNamespace(pods.namespace()).withName(name).waitUntilCondition(
                    p -> p != null && ready(p), pods.readyTimeout().toMillis(), TimeUnit.MILLISECONDS);
        } catch (KubernetesClientException e) {
            String why = why(name);
            remove(name);
            throw new SandboxException("the sandbox pod " + name + " was not ready within "
                    + pods.readyTimeout().toSeconds() + " s" + why, e);
        }
    }

    void remove(String name) {
        try {
            client.pods().inNamespace(pods.namespace()).withName(name).withGracePeriod(0).delete();
        } catch (KubernetesClientException e) {
            // Gone already, or the API is away: a restarted worker removes its leftovers (removeLeftovers).
        }
    }

    /** Removes the pods a previous run of this worker left (it was killed before it could). */
    int removeLeftovers() {
        var leftovers = client.pods().inNamespace(pods.namespace()).withLabel(WORKER_LABEL,
                labelValue(config.workerId())).list().getItems();
        leftovers.forEach(p -> remove(p.getMetadata().getName()));
        return leftovers.size();
    }

    private static boolean ready(Pod pod) {
        return pod.getStatus() != null && pod.getStatus().getConditions().stream()
                .anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()));
    }

    /** What the pod's status says about why it is not running (": ErrImagePull: ..."), or nothing. */
    private String why(String name) {
        try {
            Pod pod = client.pods().inNamespace(pods.namespace()).withName(name).get();
            if (pod == null || pod.getStatus() == null) {
                return "";
            }
            Optional<String> waiting = pod.getStatus().getContainerStatuses().stream()
                    .filter(s -> s.getState() != null && s.getState().getWaiting() != null)
                    .map(s -> s.getState().getWaiting().getReason() + ": " + s.getState().getWaiting().getMessage())
                    .findFirst();
            Optional<String> unscheduled = pod.getStatus().getConditions().stream()
                    .filter(c -> "PodScheduled".equals(c.getType()) && "False".equals(c.getStatus()))
                    .map(PodCondition::getMessage).findFirst();
            return waiting.or(() -> unscheduled).map(w -> ": " + w).orElse("");
        } catch (KubernetesClientException e) {
            return "";
        }
    }

    /** A label value: at most 63 of [A-Za-z0-9_.-], starting and ending alphanumeric. */
    static String labelValue(String text) {
        String safe = text.replaceAll("[^A-Za-z0-9_.-]", "_");
        safe = safe.length() > 63 ? safe.substring(0, 63) : safe;
        safe = safe.replaceAll("^[^A-Za-z0-9]+", "").replaceAll("[^A-Za-z0-9]+$", "");
        return safe.isEmpty() ? "x" : safe;
    }

    /** A pod name from a sandbox's unique name: lower case, at most 63 characters of [a-z0-9-]. */
    static String podName(String uniqueName) {
        String name = uniqueName.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9-]", "-");
        if (name.length() > 63) {
            name = name.substring(0, 54) + "-" + name.substring(name.length() - 8);
        }
        return name.replaceAll("^-+", "").replaceAll("-+$", "");
    }
}
