package dev.agentbus.modelclient;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

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
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration TIMEOUT = Duration.ofSeconds(5);

    private final HttpClient http;
    private final String baseUrl;
    private final String apiKey;

    public CapabilityProbe(HttpClient http, String baseUrl, String apiKey) {
        this.http = http;
        this.baseUrl = baseUrl;
        this.apiKey = apiKey == null ? "" : apiKey;
    }

    public ModelCapabilities probe(String model) {
        String root = baseUrl.endsWith("/v1") ? baseUrl.substring(0, baseUrl.length() - 3) : baseUrl;
        ModelCapabilities found = fromLmStudio(get(root + "/api/v0/models"), model);
        if (!found.known()) {
            found = fromOllama(send(request(root + "/api/show").header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(JSON.createObjectNode().put("model", model)
                            .toString()))));
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

    private JsonNode get(String url) {
        return send(request(url).GET());
    }

    private HttpRequest.Builder request(String url) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url)).timeout(TIMEOUT);
        if (!apiKey.isBlank()) {
            b.header("Authorization", "Bearer " + apiKey);
        }
        return b;
    }

    private JsonNode send(HttpRequest.Builder request) {
        try {
            HttpResponse<String> r = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
            return r.statusCode() / 100 == 2 ? JSON.readTree(r.body()) : null;
        } catch (IOException | RuntimeException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }
}
