package dev.agentbus.modelclient;

import com.fasterxml.jackson.databind.JsonNode;

import java.net.http.HttpClient;

/**
 * Asks a model server what a model can do, where it says (no standard says it):
 * <ol>
 *   <li>LM Studio: {@code GET /api/v0/models}, the model's {@code type} ({@code vlm} sees images, {@code llm} does
 *       not) and {@code capabilities} ({@code tool_use});</li>
 *   <li>Ollama: {@code POST /api/show}, its {@code capabilities} list ({@code vision}, {@code tools},
 *       {@code thinking}).</li>
 * </ol>
 * Anything else answers 404 or without these fields, and the probe says nothing ({@link ModelCapabilities#UNKNOWN});
 * the caller then goes by its settings. A short time-out and no retries, like {@link ContextWindowProbe}.
 */
final class CapabilityProbe {

    private final ServerQueries server;

    public CapabilityProbe(HttpClient http, String baseUrl, String apiKey) {
        this.server = new ServerQueries(http, baseUrl, apiKey);
    }

    public ModelCapabilities probe(String model) {
        ModelCapabilities found = fromLmStudio(server.get(server.root() + "/api/v0/models"), model);
        if (!found.known()) {
            found = fromOllama(server.ollamaShow(model));
        }
        return found;
    }

    /** LM Studio's list entry of a model; public so a client listing all models reads each entry the same way. */
    public static ModelCapabilities fromLmStudioEntry(JsonNode entry) {
        String type = entry.path("type").asText("");
        Boolean vision = type.equals("vlm") ? Boolean.TRUE : type.equals("llm") ? Boolean.FALSE : null;
        Boolean tools = entry.path("capabilities").isArray() ? contains(entry.get("capabilities"), "tool_use") : null;
        long window = entry.path("loaded_context_length").asLong(entry.path("max_context_length").asLong(0));
        return new ModelCapabilities(vision, tools, null, window > 0 ? window : null, "LM Studio /api/v0/models");
    }

    /** Ollama's {@code /api/show} answer; public for the same reason. */
    public static ModelCapabilities fromOllamaShow(JsonNode body) {
        if (body == null || !body.path("capabilities").isArray()) {
            return ModelCapabilities.UNKNOWN;
        }
        JsonNode caps = body.get("capabilities");
        return new ModelCapabilities(contains(caps, "vision"), contains(caps, "tools"), contains(caps, "thinking"),
                null, "Ollama /api/show");
    }

    private static ModelCapabilities fromLmStudio(JsonNode body, String model) {
        if (body == null || !body.path("data").isArray()) {
            return ModelCapabilities.UNKNOWN;
        }
        for (JsonNode m : body.get("data")) {
            if (m.path("id").asText("").equals(model)) {
                return fromLmStudioEntry(m);
            }
        }
        return ModelCapabilities.UNKNOWN;
    }

    private static ModelCapabilities fromOllama(JsonNode body) {
        return fromOllamaShow(body);
    }

    private static boolean contains(JsonNode array, String value) {
        for (JsonNode v : array) {
            if (v.asText("").equals(value)) {
                return true;
            }
        }
        return false;
    }
}
