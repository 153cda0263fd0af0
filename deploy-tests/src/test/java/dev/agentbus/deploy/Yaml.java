package dev.agentbus.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Reads YAML files as Jackson trees, one per document, the way kubectl and kustomize see them. */
final class Yaml {
    static final ObjectMapper MAPPER = new YAMLMapper();

    private Yaml() {
    }

    /** Every non-empty document of the file. */
    static List<JsonNode> documents(Path file) {
        try (var parser = new YAMLFactory().createParser(Files.readString(file))) {
            List<JsonNode> documents = new ArrayList<>();
            for (var it = MAPPER.readValues(parser, JsonNode.class); it.hasNext(); ) {
                JsonNode document = it.next();
                if (document != null && !document.isNull() && !document.isMissingNode()) {
                    documents.add(document);
                }
            }
            return documents;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }

    /** The file's one document, which must be a mapping. */
    static ObjectNode object(Path file) {
        List<JsonNode> documents = documents(file);
        if (documents.size() != 1 || !documents.get(0).isObject()) {
            throw new AssertionError(file + " must hold exactly one YAML mapping");
        }
        return (ObjectNode) documents.get(0);
    }

    /** The Kubernetes resources of a YAML stream (for example `kubectl kustomize` output). */
    static List<ObjectNode> resources(String yaml) {
        try (var parser = new YAMLFactory().createParser(yaml)) {
            List<ObjectNode> resources = new ArrayList<>();
            for (var it = MAPPER.readValues(parser, ObjectNode.class); it.hasNext(); ) {
                ObjectNode resource = it.next();
                if (resource != null) {
                    resources.add(resource);
                }
            }
            return resources;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read YAML", e);
        }
    }
}
