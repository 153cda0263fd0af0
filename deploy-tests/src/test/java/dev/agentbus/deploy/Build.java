package dev.agentbus.deploy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** One overlay of deploy/k8s, built and read into typed resources. */
record Build(String overlay, List<ObjectNode> manifests, List<HasMetadata> resources) {
    static final Path K8S = locate();
    static final List<String> OVERLAYS = List.of("dev", "production", "pod-sandboxes");

    static Build of(String overlay) {
        List<ObjectNode> manifests = Kustomization.build(K8S.resolve("overlays").resolve(overlay));
        List<HasMetadata> resources = new ArrayList<>();
        for (ObjectNode manifest : manifests) {
            resources.add(TypedModels.read(manifest, "overlays/" + overlay));
        }
        return new Build(overlay, manifests, resources);
    }

    <T extends HasMetadata> List<T> all(Class<T> type) {
        return resources.stream().filter(type::isInstance).map(type::cast).toList();
    }

    <T extends HasMetadata> Optional<T> named(Class<T> type, String name) {
        return all(type).stream().filter(r -> r.getMetadata().getName().equals(name)).findFirst();
    }

    /** Every workload's pod template, by workload name: the Deployments and StatefulSets. */
    Map<String, PodTemplateSpec> podTemplates() {
        Map<String, PodTemplateSpec> templates = new LinkedHashMap<>();
        all(Deployment.class).forEach(d -> templates.put(d.getMetadata().getName(), d.getSpec().getTemplate()));
        all(StatefulSet.class).forEach(s -> templates.put(s.getMetadata().getName(), s.getSpec().getTemplate()));
        return templates;
    }

    /** deploy/k8s, from the module directory (Maven's working directory) or the repository root. */
    private static Path locate() {
        for (Path candidate : List.of(Path.of("../deploy/k8s"), Path.of("deploy/k8s"))) {
            if (Files.isDirectory(candidate)) {
                return candidate.toAbsolutePath().normalize();
            }
        }
        throw new IllegalStateException("deploy/k8s not found from " + Path.of("").toAbsolutePath());
    }
}
