package dev.agentbus.modelclient;

import com.fasterxml.jackson.databind.JsonNode;

import java.net.http.HttpClient;
import java.util.Iterator;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Asks a model server how large its model's context window is. There is no standard for it, so each kind of server
 * is asked where it says, in this order, and the first answer counts:
 * <ol>
 *   <li>vLLM: {@code GET /v1/models}, the model's {@code max_model_len};</li>
 *   <li>LM Studio: {@code GET /api/v0/models}, the model's {@code loaded_context_length} (what the loaded instance
 *       runs with), else its {@code max_context_length};</li>
 *   <li>llama.cpp: {@code GET /props}, {@code default_generation_settings.n_ctx} (or a top-level {@code n_ctx});</li>
 *   <li>Ollama: {@code POST /api/show}, {@code num_ctx} of its parameters when set, else the model's
 *       {@code <architecture>.context_length}.</li>
 * </ol>
 * A server that has none of these routes (a hosted API) answers 404 and the probe says nothing; the caller falls
 * back to a setting. Each request has a short time-out and no retries: the window is a nicety, never worth delaying a
 * model call for.
 */
final class ContextWindowProbe {
    private static final Pattern NUM_CTX = Pattern.compile("(?m)^\\s*num_ctx\\s+(\\d+)");

    private final ServerQueries server;

    ContextWindowProbe(HttpClient http, String baseUrl, String apiKey) {
        this.server = new ServerQueries(http, baseUrl, apiKey);
    }

    Optional<ContextWindow> probe(String model) {
        String root = server.root();
        Optional<ContextWindow> found = fromList(server.get(server.baseUrl() + "/models"), model, "max_model_len", null,
                "vLLM /v1/models");
        if (found.isEmpty()) {
            found = fromList(server.get(root + "/api/v0/models"), model, "loaded_context_length", "max_context_length",
                    "LM Studio /api/v0/models");
        }
        if (found.isEmpty()) {
            found = fromProps(server.get(root + "/props"));
        }
        if (found.isEmpty()) {
            found = fromOllama(server.ollamaShow(model));
        }
        return found;
    }

    /** A {@code data} list of models: the named model's field, or the first model's when the name is not listed. */
    private static Optional<ContextWindow> fromList(JsonNode body, String model, String field, String fallbackField,
                                                    String source) {
        if (body == null || !body.path("data").isArray() || body.path("data").isEmpty()) {
            return Optional.empty();
        }
        JsonNode chosen = body.path("data").get(0);
        for (JsonNode m : body.path("data")) {
            if (m.path("id").asText("").equals(model)) {
                chosen = m;
            }
        }
        Optional<ContextWindow> w = positive(chosen.path(field), source);
        return w.isPresent() || fallbackField == null ? w : positive(chosen.path(fallbackField), source);
    }

    private static Optional<ContextWindow> fromProps(JsonNode body) {
        if (body == null) {
            return Optional.empty();
        }
        Optional<ContextWindow> w = positive(body.path("default_generation_settings").path("n_ctx"),
                "llama.cpp /props");
        return w.isPresent() ? w : positive(body.path("n_ctx"), "llama.cpp /props");
    }

    private static Optional<ContextWindow> fromOllama(JsonNode body) {
        if (body == null) {
            return Optional.empty();
        }
        // num_ctx is what Ollama really runs the model with; context_length is only what the model could take.
        Matcher numCtx = NUM_CTX.matcher(body.path("parameters").asText(""));
        if (numCtx.find()) {
            return Optional.of(new ContextWindow(Long.parseLong(numCtx.group(1)), "Ollama /api/show"));
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = body.path("model_info").fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            if (e.getKey().endsWith(".context_length")) {
                return positive(e.getValue(), "Ollama /api/show");
            }
        }
        return Optional.empty();
    }

    private static Optional<ContextWindow> positive(JsonNode n, String source) {
        return n.canConvertToLong() && n.asLong() > 0 ? Optional.of(new ContextWindow(n.asLong(), source))
                : Optional.empty();
    }
}
