package dev.agentbus.testkit.model;

import static dev.agentbus.testkit.model.Exchanges.JSON;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code POST /v1/embeddings}, OpenAI's shape: {@code input} is one string or a list of them, the answer has one
 * {@code data} item per input with its {@code index}. The vectors are {@link HashedEmbedding}'s, computed, not
 * scripted: the same text always gets the same vector, whatever the model asked for (the name is echoed).
 */
final class EmbeddingsRoute {

    private final String modelName;
    private final Recorder recorder;

    EmbeddingsRoute(String modelName, Recorder recorder) {
        this.modelName = modelName;
        this.recorder = recorder;
    }

    void handle(HttpExchange exchange) throws IOException {
        JsonNode request = Exchanges.parse(Exchanges.body(exchange));
        JsonNode input = request == null ? null : request.get("input");
        List<String> texts = new ArrayList<>();
        if (input != null && input.isTextual()) {
            texts.add(input.asText());
        } else if (input != null && input.isArray()) {
            for (JsonNode t : input) {
                if (!t.isTextual()) {
                    Exchanges.sendError(exchange, 400, "input must be a string or a list of strings",
                            "invalid_request_error", null);
                    return;
                }
                texts.add(t.asText());
            }
        }
        if (texts.isEmpty()) {
            Exchanges.sendError(exchange, 400, "input is required: a string or a non-empty list of strings",
                    "invalid_request_error", null);
            return;
        }
        recorder.embedded(texts.size());
        ObjectNode answer = JSON.createObjectNode().put("object", "list");
        ArrayNode data = answer.putArray("data");
        long words = 0;
        for (int i = 0; i < texts.size(); i++) {
            ObjectNode item = data.addObject().put("object", "embedding").put("index", i);
            ArrayNode vector = item.putArray("embedding");
            for (float x : HashedEmbedding.embed(texts.get(i))) {
                vector.add(x);
            }
            // Words stand in for tokens: only has to be plausible.
            words += texts.get(i).isBlank() ? 0 : texts.get(i).strip().split("\\s+").length;
        }
        answer.put("model", request.path("model").asText(modelName));
        answer.putObject("usage").put("prompt_tokens", words).put("total_tokens", words);
        Exchanges.sendJson(exchange, 200, answer.toString());
    }
}
