package dev.agentbus.deploy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** The overlays build as kustomize builds them, and the in-test build refuses what it does not do. */
class OverlayBuildTest {
    private static final List<String> OVERLAYS = Build.OVERLAYS;

    @ParameterizedTest
    @FieldSource("OVERLAYS")
    void theOverlaysPatchesImagesReplicasAndSecretsAreApplied(String overlay) {
        Build build = Build.of(overlay);
        Map<String, ObjectNode> byName = byKindAndName(build.manifests());
        String tag = overlay.equals("dev") ? "dev" : "0.1.0";
        assertThat(byName.get("Deployment/orchestrator").at("/spec/template/spec/containers/0/image").asText())
                .isEqualTo("agentbus/orchestrator:" + tag);
        if (overlay.equals("dev")) {
            assertThat(byName.get("KafkaNodePool/dual").at("/spec/replicas").asInt()).isEqualTo(1);
            assertThat(byName.get("Deployment/gateway").at("/spec/replicas").asInt()).isEqualTo(1);
            assertThat(byName.get("Secret/agentbus-secrets").at("/data/AGENTBUS_TOKEN").asText()).isNotEmpty();
            assertThat(byName.get("KafkaTopic/agentbus.session-events").at("/spec/replicas").asInt()).isEqualTo(1);
        } else {
            assertThat(byName.get("Deployment/gateway").at("/spec/replicas").asInt()).isEqualTo(3);
            assertThat(byName.get("PodDisruptionBudget/gateway").at("/spec/minAvailable").asInt()).isEqualTo(2);
            assertThat(byName.get("Deployment/sandbox-worker").at("/spec/template/spec/topologySpreadConstraints"))
                    .hasSize(1);
            assertThat(byName).doesNotContainKey("Secret/agentbus-secrets");
        }
        ObjectNode worker = byName.get("Deployment/sandbox-worker");
        if (overlay.equals("pod-sandboxes")) {
            assertThat(worker.at("/spec/template/spec/serviceAccountName").asText()).isEqualTo("sandbox-worker");
            assertThat(worker.at("/spec/template/spec/automountServiceAccountToken").asBoolean()).isTrue();
            assertThat(worker.at("/spec/template/spec/securityContext/seccompProfile/type").asText())
                    .isEqualTo("RuntimeDefault");
            assertThat(worker.at("/spec/template/spec/containers/0/env").findValuesAsText("value"))
                    .contains("kubernetes");
            // the Role grants what KubernetesBackend does, and the binding gives it to the worker's account
            assertThat(byName.get("Role/sandbox-pods").at("/rules").toString())
                    .contains("\"pods\"").contains("\"pods/exec\"").contains("\"create\"").contains("\"delete\"");
            assertThat(byName.get("RoleBinding/sandbox-worker-sandbox-pods").at("/subjects/0/name").asText())
                    .isEqualTo("sandbox-worker");
            assertThat(byName).containsKey("ServiceAccount/sandbox-worker")
                    .containsKey("NetworkPolicy/sandbox-worker-to-the-kubernetes-api");
        } else {
            assertThat(worker.at("/spec/template/spec/serviceAccountName").isMissingNode()).isTrue();
        }
    }

    /**
     * The in-test build against kustomize itself ({@code kubectl kustomize}). CI installs kubectl (.ci/run takes it
     * from the npm package that ships a Linux kubectl, as Debian has none new enough), so there ({@code CI} set) a
     * missing kubectl fails the test; on a developer's machine without it the test is reported as skipped, not passed.
     */
    @ParameterizedTest
    @FieldSource("OVERLAYS")
    void theInTestBuildEqualsKubectlKustomize(String overlay) throws Exception {
        if (System.getenv("CI") != null) {
            assertThat(kubectlAvailable()).as("CI installs kubectl (.ci/run), so this comparison must run there")
                    .isTrue();
        }
        assumeTrue(kubectlAvailable(), "kubectl is not installed");
        Process process = new ProcessBuilder("kubectl", "kustomize",
                Build.K8S.resolve("overlays").resolve(overlay).toString()).redirectErrorStream(false).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String errors = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).as(errors).isZero();
        Map<String, ObjectNode> kustomize = byKindAndName(Yaml.resources(output));
        Map<String, ObjectNode> ours = byKindAndName(Build.of(overlay).manifests());
        assertThat(ours.keySet()).containsExactlyInAnyOrderElementsOf(kustomize.keySet());
        for (String key : kustomize.keySet()) {
            assertThat(ours.get(key)).as(key).isEqualTo(kustomize.get(key));
        }
    }

    @Test
    void aFeatureTheBuildDoesNotImplementFails(@TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve("kustomization.yaml"), """
                apiVersion: kustomize.config.k8s.io/v1beta1
                kind: Kustomization
                commonLabels:
                  team: a
                """);
        assertThatThrownBy(() -> Kustomization.build(dir)).hasMessageContaining("commonLabels");
    }

    @Test
    void aStrategicMergePatchOrAPatchThatSelectsNothingFails(@TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve("cm.yaml"), """
                apiVersion: v1
                kind: ConfigMap
                metadata:
                  name: a
                data:
                  K: v
                """);
        Files.writeString(dir.resolve("merge.yaml"), """
                apiVersion: v1
                kind: ConfigMap
                metadata:
                  name: a
                data:
                  K: w
                """);
        Files.writeString(dir.resolve("ops.yaml"), """
                - op: replace
                  path: /data/K
                  value: w
                """);
        String kustomization = """
                apiVersion: kustomize.config.k8s.io/v1beta1
                kind: Kustomization
                resources: [cm.yaml]
                patches:
                  - path: %s
                    target:
                      kind: ConfigMap
                      name: %s
                """;
        Files.writeString(dir.resolve("kustomization.yaml"), kustomization.formatted("merge.yaml", "a"));
        assertThatThrownBy(() -> Kustomization.build(dir)).hasMessageContaining("JSON 6902");
        Files.writeString(dir.resolve("kustomization.yaml"), kustomization.formatted("ops.yaml", "b"));
        assertThatThrownBy(() -> Kustomization.build(dir)).hasMessageContaining("selects no resource");
        Files.writeString(dir.resolve("kustomization.yaml"), kustomization.formatted("ops.yaml", "a"));
        assertThat(Kustomization.build(dir).getFirst().at("/data/K").asText()).isEqualTo("w");
    }

    private static Map<String, ObjectNode> byKindAndName(List<ObjectNode> resources) {
        return resources.stream().collect(Collectors.toMap(
                r -> r.path("kind").asText() + "/" + r.path("metadata").path("name").asText(), Function.identity()));
    }

    private static boolean kubectlAvailable() {
        String path = System.getenv().getOrDefault("PATH", "");
        return Stream.of(path.split(java.io.File.pathSeparator))
                .anyMatch(dir -> !dir.isEmpty() && Files.isExecutable(Path.of(dir, "kubectl")));
    }
}
