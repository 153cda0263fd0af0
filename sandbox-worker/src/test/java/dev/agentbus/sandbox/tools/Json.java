package dev.agentbus.sandbox.tools;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** Builds tool arguments the way they arrive from the model: a JSON object. */
final class Json {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private Json() {
    }

    /** {@code args("path", "a.txt", "start_line", 3)}. */
    static JsonNode args(Object... keysAndValues) {
        ObjectNode node = MAPPER.createObjectNode();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            node.set((String) keysAndValues[i], MAPPER.valueToTree(keysAndValues[i + 1]));
        }
        return node;
    }

    static JsonNode parse(String json) {
        try {
            return MAPPER.readTree(json);
        } catch (Exception e) {
            throw new IllegalArgumentException(e);
        }
    }
}
