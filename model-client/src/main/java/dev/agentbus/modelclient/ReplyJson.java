package dev.agentbus.modelclient;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Reads the JSON of a server's answers leniently, the same way for a streamed chunk, a whole reply and a model list:
 * a field of the wrong type counts as absent rather than failing the call, and only an answer that is not a JSON
 * object at all is unreadable.
 */
final class ReplyJson {
    private static final ObjectMapper JSON = new ObjectMapper();

    private ReplyJson() {
    }

    /** The answer as a JSON object, or a failure that says the server sent something unreadable. */
    static JsonNode parse(String json, String what, CallFailures failures) throws ModelCallException {
        try {
            JsonNode node = JSON.readTree(json);
            if (node == null || !node.isObject()) {
                throw failures.unreadable(what, "the reply is not a JSON object");
            }
            return node;
        } catch (JsonProcessingException e) {
            throw failures.unreadable(what, "not JSON: " + failures.serverWords(e.getOriginalMessage()));
        }
    }

    /** A text field, or null when absent, null or not text. */
    static String text(JsonNode node) {
        return node != null && node.isTextual() ? node.asText() : null;
    }

    /**
     * Tool-call arguments as text. OpenAI sends a JSON string; a few servers send the JSON object itself, which is
     * turned back into JSON text.
     */
    static String arguments(JsonNode node) {
        if (node == null || node.isNull() || node.isMissingNode()) {
            return null;
        }
        return node.isTextual() ? node.asText() : node.toString();
    }
}
