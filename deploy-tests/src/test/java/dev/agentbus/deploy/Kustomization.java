package dev.agentbus.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.zjsonpatch.JsonPatch;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Iterator;
import java.util.List;
import java.util.Set;

/**
 * Builds a kustomization the way {@code kustomize build} does, for the features the kustomizations of deploy/k8s
 * use: resources (files and directories), namespace, images (new tag), replicas, a secret generator of literals
 * without name hashes, and JSON 6902 patches selected by group, kind and name. Any other feature fails the build,
 * so a kustomization cannot use one that this class would silently skip. The build does not need the kustomize
 * binary; {@code OverlayBuildTest} compares the two wherever kubectl is installed, which CI ({@code .ci/run}) makes
 * sure of.
 */
final class Kustomization {
    private static final Set<String> SUPPORTED = Set.of("apiVersion", "kind", "namespace", "resources", "images",
            "replicas", "generatorOptions", "secretGenerator", "patches");
    /** Kinds kustomize leaves without a namespace. */
    private static final Set<String> CLUSTER_SCOPED = Set.of("Namespace");

    private Kustomization() {
    }

    /** The resources the kustomization in this directory produces, in no particular order. */
    static List<ObjectNode> build(Path directory) {
        Path file = directory.resolve("kustomization.yaml");
        ObjectNode k = Yaml.object(file);
        k.fieldNames().forEachRemaining(name -> {
            if (!SUPPORTED.contains(name)) {
                throw new AssertionError(file + ": '" + name + "' is not a feature this build supports " + SUPPORTED);
            }
        });
        if (!"Kustomization".equals(k.path("kind").asText())
                || !"kustomize.config.k8s.io/v1beta1".equals(k.path("apiVersion").asText())) {
            throw new AssertionError(file + ": not a kustomize.config.k8s.io/v1beta1 Kustomization");
        }
        List<ObjectNode> resources = new ArrayList<>();
        for (JsonNode entry : k.path("resources")) {
            Path path = directory.resolve(entry.asText()).normalize();
            if (Files.isDirectory(path)) {
                resources.addAll(build(path));
            } else {
                for (JsonNode document : Yaml.documents(path)) {
                    resources.add((ObjectNode) document);
                }
            }
        }
        resources.addAll(secrets(k, file));
        for (JsonNode patch : k.path("patches")) {
            applyPatch(resources, patch, directory);
        }
        for (JsonNode image : k.path("images")) {
            setImage(resources, image);
        }
        for (JsonNode replicas : k.path("replicas")) {
            setReplicas(resources, replicas, file);
        }
        if (k.hasNonNull("namespace")) {
            String namespace = k.get("namespace").asText();
            for (ObjectNode resource : resources) {
                if (!CLUSTER_SCOPED.contains(resource.path("kind").asText())) {
                    ((ObjectNode) resource.get("metadata")).put("namespace", namespace);
                }
            }
        }
        return resources;
    }

    private static List<ObjectNode> secrets(ObjectNode k, Path file) {
        if (!k.path("secretGenerator").isEmpty()
                && !k.path("generatorOptions").path("disableNameSuffixHash").asBoolean(false)) {
            throw new AssertionError(file + ": generated Secrets need generatorOptions.disableNameSuffixHash here");
        }
        List<ObjectNode> secrets = new ArrayList<>();
        for (JsonNode generator : k.path("secretGenerator")) {
            generator.fieldNames().forEachRemaining(name -> {
                if (!Set.of("name", "literals").contains(name)) {
                    throw new AssertionError(file + ": secretGenerator." + name + " is not supported here");
                }
            });
            ObjectNode secret = JsonNodeFactory.instance.objectNode();
            secret.put("apiVersion", "v1").put("kind", "Secret").put("type", "Opaque");
            secret.putObject("metadata").put("name", generator.path("name").asText());
            ObjectNode data = secret.putObject("data");
            for (JsonNode literal : generator.path("literals")) {
                String text = literal.asText();
                int eq = text.indexOf('=');
                if (eq < 1) {
                    throw new AssertionError(file + ": literal '" + text + "' is not KEY=value");
                }
                data.put(text.substring(0, eq), Base64.getEncoder()
                        .encodeToString(text.substring(eq + 1).getBytes(StandardCharsets.UTF_8)));
            }
            secrets.add(secret);
        }
        return secrets;
    }

    /** A JSON 6902 patch from a file, applied to every resource its target selects (at least one). */
    private static void applyPatch(List<ObjectNode> resources, JsonNode patch, Path directory) {
        Path file = directory.resolve(patch.path("path").asText());
        List<JsonNode> documents = Yaml.documents(file);
        if (documents.size() != 1 || !documents.get(0).isArray()) {
            throw new AssertionError(file + ": only JSON 6902 patches (a list of operations) are supported here");
        }
        JsonNode target = patch.path("target");
        int applied = 0;
        for (int i = 0; i < resources.size(); i++) {
            ObjectNode resource = resources.get(i);
            if (selects(target, resource)) {
                resources.set(i, (ObjectNode) JsonPatch.apply(documents.get(0), resource));
                applied++;
            }
        }
        if (applied == 0) {
            throw new AssertionError(file + ": its target " + target + " selects no resource");
        }
    }

    private static boolean selects(JsonNode target, ObjectNode resource) {
        String apiVersion = resource.path("apiVersion").asText();
        String group = apiVersion.contains("/") ? apiVersion.substring(0, apiVersion.indexOf('/')) : "";
        return (!target.has("group") || target.get("group").asText().equals(group))
                && (!target.has("kind") || target.get("kind").asText().equals(resource.path("kind").asText()))
                && (!target.has("name")
                || target.get("name").asText().equals(resource.path("metadata").path("name").asText()));
    }

    private static void setImage(List<ObjectNode> resources, JsonNode image) {
        String name = image.path("name").asText();
        for (ObjectNode resource : resources) {
            for (Iterator<JsonNode> it = resource.path("spec").path("template").path("spec").path("containers")
                    .elements(); it.hasNext(); ) {
                ObjectNode container = (ObjectNode) it.next();
                String current = container.path("image").asText();
                int colon = current.lastIndexOf(':');
                String repository = colon > current.lastIndexOf('/') ? current.substring(0, colon) : current;
                if (repository.equals(name)) {
                    String newName = image.path("newName").asText(repository);
                    container.put("image", newName + ":" + image.path("newTag").asText());
                }
            }
        }
    }

    private static void setReplicas(List<ObjectNode> resources, JsonNode replicas, Path file) {
        String name = replicas.path("name").asText();
        boolean found = false;
        for (ObjectNode resource : resources) {
            if (name.equals(resource.path("metadata").path("name").asText())
                    && Set.of("Deployment", "StatefulSet").contains(resource.path("kind").asText())) {
                ((ObjectNode) resource.get("spec")).put("replicas", replicas.path("count").asInt());
                found = true;
            }
        }
        if (!found) {
            throw new AssertionError(file + ": replicas for '" + name + "', which is no Deployment or StatefulSet");
        }
    }
}
