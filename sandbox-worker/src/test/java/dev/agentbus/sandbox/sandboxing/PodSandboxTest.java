package dev.agentbus.sandbox.sandboxing;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import io.fabric8.kubernetes.api.model.PodStatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.fabric8.kubernetes.client.server.mock.KubernetesMixedDispatcher;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.mockwebserver.ServerRequest;
import io.fabric8.mockwebserver.ServerResponse;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.kubernetes.client.server.mock.OutputStreamMessage;
import io.fabric8.kubernetes.client.server.mock.StatusStreamMessage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The pod backend against a Kubernetes API: fabric8's mock server keeping objects as the API server does (CRUD),
 * and answering the exec of a shell as told (an expectation; the mixed dispatcher serves both). No kubelet runs there, so {@link Kubelet} plays the one part of it the backend waits for: it marks pods
 * of a usable image ready, and leaves pods of a missing image waiting as a kubelet would, with the reason.
 */
class PodSandboxTest {
    private static final String NAMESPACE = "agentbus";
    private static final String MISSING_IMAGE = "registry.invalid/missing:1";

    private final Map<ServerRequest, Queue<ServerResponse>> expectations = new HashMap<>();
    private KubernetesMockServer server;
    private KubernetesClient client;

    @TempDir
    Path root;

    private Kubelet kubelet;

    @BeforeEach
    void startApiAndKubelet() {
        server = new KubernetesMockServer(new Context(), new MockWebServer(), expectations,
                new KubernetesMixedDispatcher(expectations), false);
        server.init();
        client = server.createClient();
        kubelet = new Kubelet(client);
    }

    @AfterEach
    void stopApiAndKubelet() {
        kubelet.close();
        client.close();
        try {
            server.destroy();
        } catch (IllegalStateException slowToClose) {
            // fabric8's mock server gives Vert.x 10 s to close its HTTP server, and on a loaded machine an exec
            // WebSocket the client closed a moment ago can still be draining then (seen once in a clean CI run).
            // The test's assertions are done by now: a slow shutdown of the fake API is not a fault of the backend,
            // and the next test starts a server of its own on another port.
        }
    }

    @Test
    void aSessionsSandboxIsAHardenedPodOfItsOwnMountingOnlyItsWorkspace() throws Exception {
        KubernetesBackend backend = backend(SandboxConfig.defaults().withWorkerId("sandbox-worker-7"), "gvisor");
        Path workspace = workspace("alice", "s-1");

        try (var host = (KubernetesHost) backend.newHost(new SandboxKey("alice", "s-1"), workspace)) {
            Pod pod = client.pods().inNamespace(NAMESPACE).withName(host.podName()).get();
            assertThat(pod.getMetadata().getLabels()).containsEntry("app.kubernetes.io/component", "sandbox")
                    .containsEntry("app.kubernetes.io/part-of", "agentbus")
                    .containsEntry(SandboxPods.WORKER_LABEL, "sandbox-worker-7")
                    .containsEntry(SandboxPods.FOR_LABEL, "alice_s-1");
            var spec = pod.getSpec();
            assertThat(spec.getRuntimeClassName()).isEqualTo("gvisor");
            assertThat(spec.getAutomountServiceAccountToken()).isFalse();
            assertThat(spec.getEnableServiceLinks()).isFalse();
            assertThat(spec.getSecurityContext().getRunAsNonRoot()).isTrue();
            assertThat(spec.getSecurityContext().getRunAsUser()).isNotZero();
            assertThat(spec.getSecurityContext().getSeccompProfile().getType()).isEqualTo("RuntimeDefault");
            Container container = spec.getContainers().getFirst();
            assertThat(container.getImage()).isEqualTo(SandboxConfig.DEFAULT_IMAGE);
            assertThat(container.getSecurityContext().getReadOnlyRootFilesystem()).isTrue();
            assertThat(container.getSecurityContext().getAllowPrivilegeEscalation()).isFalse();
            assertThat(container.getSecurityContext().getCapabilities().getDrop()).containsExactly("ALL");
            assertThat(container.getResources().getLimits().get("memory").getNumericalAmount().longValue())
                    .isEqualTo(512L * 1024 * 1024);
            assertThat(container.getResources().getLimits().get("cpu").toString()).isEqualTo("900m");
            assertThat(container.getVolumeMounts()).anySatisfy(m -> {
                assertThat(m.getMountPath()).isEqualTo("/workspace");
                assertThat(m.getSubPath()).isEqualTo("alice/s-1");
            });
            assertThat(spec.getVolumes()).anySatisfy(v ->
                    assertThat(v.getPersistentVolumeClaim().getClaimName()).isEqualTo("agentbus-workspaces"));
            assertThat(spec.getVolumes()).noneSatisfy(v -> assertThat(v.getHostPath()).isNotNull());
        }
    }

    @Test
    void withoutARuntimeClassThePodUsesTheClustersDefault() throws Exception {
        try (var host = (KubernetesHost) backend(SandboxConfig.defaults(), "")
                .newHost(new SandboxKey("bob", "s-2"), workspace("bob", "s-2"))) {
            assertThat(client.pods().inNamespace(NAMESPACE).withName(host.podName()).get().getSpec()
                    .getRuntimeClassName()).isNull();
        }
    }

    /**
     * The API's exec, as the mock answers it: the worker asks for {@code /bin/sh} in the sandbox container with
     * stdin and stdout only (the pod's shell merges stderr into stdout), and reads what the shell writes.
     */
    @Test
    void theShellRunsThroughTheApisExecInTheSandboxContainer() throws Exception {
        try (var host = (KubernetesHost) backend(SandboxConfig.defaults(), "").newHost(
                new SandboxKey("alice", "s-11"), workspace("alice", "s-11"))) {
            server.expect().get().withPath("/api/v1/namespaces/" + NAMESPACE + "/pods/" + host.podName()
                            + "/exec?command=%2Fbin%2Fsh&command=-c&command=exec%20%2Fbin%2Fsh%202%3E%261"
                            + "&container=sandbox&stdin=true&stdout=true")
                    .andUpgradeToWebSocket().open(new OutputStreamMessage("sandbox$ ready\n")).done().once();

            var shell = host.startShell();
            try (var reader = new BufferedReader(new InputStreamReader(shell.output(), StandardCharsets.UTF_8))) {
                assertThat(reader.readLine()).isEqualTo("sandbox$ ready");
            } finally {
                shell.destroy();
            }
        }
    }

    @Test
    void clearingALivePodKillsItsProcessesThroughExecAndKeepsThePod() throws Exception {
        try (var host = (KubernetesHost) backend(SandboxConfig.defaults(), "").newHost(
                new SandboxKey("alice", "s-12"), workspace("alice", "s-12"))) {
            String pod = host.podName();
            server.expect().get().withPath("/api/v1/namespaces/" + NAMESPACE + "/pods/" + pod
                            + "/exec?command=%2Fbin%2Fsh&command=-c&command=kill%20-9%20-1%3B%20true"
                            + "&container=sandbox&stdout=true")
                    .andUpgradeToWebSocket().open(new StatusStreamMessage(0)).done().once();

            host.killAll();

            // Had the kill not been answered, the backend would have replaced the pod with a new one.
            assertThat(host.podName()).isEqualTo(pod);
            assertThat(client.pods().inNamespace(NAMESPACE).list().getItems()).extracting(p -> p.getMetadata()
                    .getName()).containsExactly(pod);
        }
    }

    @Test
    void closingTheSandboxDeletesItsPod() throws Exception {
        var host = (KubernetesHost) backend(SandboxConfig.defaults(), "").newHost(new SandboxKey("alice", "s-3"),
                workspace("alice", "s-3"));
        assertThat(client.pods().inNamespace(NAMESPACE).withName(host.podName()).get()).isNotNull();

        host.close();

        assertThat(client.pods().inNamespace(NAMESPACE).withName(host.podName()).get()).isNull();
    }

    @Test
    void aPodThatNeverGetsReadyFailsWithTheKubeletsReasonAndIsRemoved() throws Exception {
        KubernetesBackend backend = backend(SandboxConfig.defaults().withImage(MISSING_IMAGE), "");

        assertThatThrownBy(() -> backend.newHost(new SandboxKey("alice", "s-4"), workspace("alice", "s-4")))
                .isInstanceOf(SandboxException.class)
                .hasMessageContaining("was not ready within 2 s")
                .hasMessageContaining("ErrImagePull");
        assertThat(client.pods().inNamespace(NAMESPACE).list().getItems()).isEmpty();
    }

    @Test
    void aPodThatVanishedIsReplacedWhenTheSandboxIsCleared() throws Exception {
        try (var host = (KubernetesHost) backend(SandboxConfig.defaults(), "").newHost(
                new SandboxKey("alice", "s-5"), workspace("alice", "s-5"))) {
            String first = host.podName();
            client.pods().inNamespace(NAMESPACE).withName(first).delete(); // evicted, or its node lost

            host.killAll();

            assertThat(host.podName()).isNotEqualTo(first);
            assertThat(client.pods().inNamespace(NAMESPACE).withName(host.podName()).get().getStatus()
                    .getConditions()).anySatisfy(c -> assertThat(c.getType()).isEqualTo("Ready"));
        }
    }

    @Test
    void aPooledPodHandedToASessionIsRemadeOnItsNewPathWhenCleared() throws Exception {
        Path waiting = workspace("pool", "p-1");
        try (var host = (KubernetesHost) backend(SandboxConfig.defaults(), "").newHost(SandboxKey.pooled("p-1"),
                waiting)) {
            Path placed = Files.createDirectories(root.resolve("carol"));
            Files.move(waiting, placed.resolve("s-6"));
            host.moved(placed.resolve("s-6"));

            host.killAll();

            Pod pod = client.pods().inNamespace(NAMESPACE).withName(host.podName()).get();
            assertThat(pod.getSpec().getContainers().getFirst().getVolumeMounts())
                    .anySatisfy(m -> assertThat(m.getSubPath()).isEqualTo("carol/s-6"));
            assertThat(client.pods().inNamespace(NAMESPACE).list().getItems()).hasSize(1);
        }
    }

    @Test
    void aWorkspaceOutsideTheClaimIsRefusedBeforeAnyPodIsMade(@TempDir Path elsewhere) {
        assertThatThrownBy(() -> backend(SandboxConfig.defaults(), "").newHost(new SandboxKey("alice", "s-7"),
                elsewhere)).isInstanceOf(SandboxException.class).hasMessageContaining("not below the workers' claim");
        assertThat(client.pods().inNamespace(NAMESPACE).list().getItems()).isEmpty();
    }

    @Test
    void aRestartedWorkerRemovesThePodsItsPredecessorLeftAndNoOthers() throws Exception {
        KubernetesBackend mine = backend(SandboxConfig.defaults().withWorkerId("sandbox-worker-1"), "");
        KubernetesBackend other = backend(SandboxConfig.defaults().withWorkerId("sandbox-worker-2"), "");
        mine.newHost(new SandboxKey("alice", "s-8"), workspace("alice", "s-8"));
        mine.newHost(new SandboxKey("bob", "s-9"), workspace("bob", "s-9"));
        var others = (KubernetesHost) other.newHost(new SandboxKey("carol", "s-10"), workspace("carol", "s-10"));

        assertThat(mine.removeLeftovers()).isEqualTo(2);

        assertThat(client.pods().inNamespace(NAMESPACE).list().getItems()).extracting(p -> p.getMetadata().getName())
                .containsExactly(others.podName());
    }

    @Test
    void theWorkerChoosesThePodBackendWhenTheApiLetsItListPodsAndElseSaysWhy() throws Exception {
        PodSandboxConfig pods = new PodSandboxConfig(NAMESPACE, "agentbus-workspaces", root, "", Duration.ofSeconds(5));
        SandboxConfig config = SandboxConfig.defaults().withBackend(SandboxConfig.Backend.KUBERNETES);

        BackendChoice.Probe found = KubernetesBackend.probe(server.createClient(), config, pods);
        assertThat(found.usable()).isInstanceOf(KubernetesBackend.class);
        assertThat(found.usable().name()).isEqualTo("kubernetes");
        found.usable().close();

        // An API that is not there: the worker starts, refuses commands, and names the API and the namespace.
        var nowhere = new io.fabric8.kubernetes.client.KubernetesClientBuilder().withConfig(
                new io.fabric8.kubernetes.client.ConfigBuilder().withMasterUrl("https://127.0.0.1:1")
                        .withRequestRetryBackoffLimit(0).withConnectionTimeout(2000).build()).build();
        BackendChoice.Probe missing = KubernetesBackend.probe(nowhere, config, pods);
        assertThat(missing.usable()).isNull();
        assertThat(missing.problem()).contains("https://127.0.0.1:1").contains("namespace " + NAMESPACE);
        BackendChoice refused = BackendChoice.choose(SandboxConfig.Backend.KUBERNETES, false,
                () -> { throw new AssertionError("docker is not probed"); },
                () -> { throw new AssertionError("bubblewrap is not probed"); }, () -> missing);
        assertThat(refused.backend()).isInstanceOf(Unavailable.class);
        assertThat(((Unavailable) refused.backend()).reason()).contains("(kubernetes)").contains("127.0.0.1:1");
    }

    @Test
    void theSandboxNamespaceIsTheConfiguredOneElseTheWorkersOwnElseDefault(@TempDir Path secrets) throws Exception {
        Path own = secrets.resolve("namespace");
        assertThat(PodSandboxConfig.namespaceOrOwn("", own)).as("outside a pod").isEqualTo("default");
        java.nio.file.Files.writeString(own, "team-a\n");
        assertThat(PodSandboxConfig.namespaceOrOwn(" ", own)).as("in a pod").isEqualTo("team-a");
        assertThat(PodSandboxConfig.namespaceOrOwn("sandboxes", own)).isEqualTo("sandboxes");
    }

    @Test
    void podNamesAndLabelValuesKeepKubernetesRules() {
        String name = SandboxPods.podName(SandboxKey.uniqueName("Alice.Smith_" + "x".repeat(80)));
        assertThat(name).hasSizeLessThanOrEqualTo(63).matches("[a-z0-9]([a-z0-9-]*[a-z0-9])?");
        assertThat(SandboxPods.labelValue("pool/-" + "y".repeat(80) + "-")).hasSizeLessThanOrEqualTo(63)
                .matches("[A-Za-z0-9]([A-Za-z0-9_.-]*[A-Za-z0-9])?");
    }

    private KubernetesBackend backend(SandboxConfig config, String runtimeClass) {
        return new KubernetesBackend(client, config, new PodSandboxConfig(NAMESPACE, "agentbus-workspaces", root,
                runtimeClass, Duration.ofSeconds(2)));
    }

    private Path workspace(String user, String session) throws Exception {
        return Files.createDirectories(root.resolve(user).resolve(session));
    }

    /**
     * The part of a kubelet the backend waits for: every pod that appears is marked ready, unless its image cannot
     * be pulled, which leaves it waiting with ErrImagePull. It watches the API, as a kubelet does.
     */
    private static final class Kubelet implements AutoCloseable {
        private final ExecutorService updates = Executors.newSingleThreadExecutor();
        private final Watch watch;

        Kubelet(KubernetesClient client) {
            this.watch = client.pods().inNamespace(NAMESPACE).watch(new Watcher<>() {
                @Override
                public void eventReceived(Action action, Pod pod) {
                    if (action == Action.ADDED) {
                        // Not on the watch's own thread: it delivers the events, and must not wait for an update.
                        updates.submit(() -> client.pods().inNamespace(NAMESPACE).resource(withStatus(pod))
                                .updateStatus());
                    }
                }

                @Override
                public void onClose(WatcherException cause) {
                }
            });
        }

        private static Pod withStatus(Pod pod) {
            boolean pullable = !pod.getSpec().getContainers().getFirst().getImage().equals(MISSING_IMAGE);
            var status = new PodStatusBuilder().withPhase(pullable ? "Running" : "Pending");
            if (pullable) {
                status.withConditions(new PodConditionBuilder().withType("Ready").withStatus("True").build());
            } else {
                status.addNewContainerStatus().withName("sandbox").withReady(false).withNewState().withNewWaiting()
                        .withReason("ErrImagePull").withMessage("pull access denied for " + MISSING_IMAGE)
                        .endWaiting().endState().endContainerStatus();
            }
            return new PodBuilder(pod).withStatus(status.build()).build();
        }

        @Override
        public void close() {
            watch.close();
            updates.shutdownNow();
        }
    }
}
