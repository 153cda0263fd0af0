package dev.agentbus.gateway.accounts.modelserver;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * What a model server says a model can do, read from the two servers that say it. The orchestrator's model client
 * reads the same fields (model-client's {@code CapabilityProbe}); the gateway does not depend on that module, so the
 * few lines are here again, for the model list only.
 */
record ModelCapabilityText(Boolean vision, Boolean tools, Boolean thinking, Long contextWindow, String source) {

    /** An entry of LM Studio's {@code GET /api/v0/models}: {@code type} vlm or llm, {@code capabilities}. */
    static ModelCapabilityText fromLmStudio(JsonNode entry) {
        String type = entry.path("type").asText("");
        Boolean vision = type.equals("vlm") ? Boolean.TRUE : type.equals("llm") ? Boolean.FALSE : null;
        Boolean tools = entry.path("capabilities").isArray() ? contains(entry.get("capabilities"), "tool_use") : null;
        long window = entry.path("loaded_context_length").asLong(entry.path("max_context_length").asLong(0));
        return new ModelCapabilityText(vision, tools, null, window > 0 ? window : null, "LM Studio /api/v0/models");
    }

    /** Ollama's {@code POST /api/show}: its {@code capabilities} list; null when it has none. */
    static ModelCapabilityText fromOllama(JsonNode show) {
        if (show == null || !show.path("capabilities").isArray()) {
            return null;
        }
        JsonNode caps = show.get("capabilities");
        return new ModelCapabilityText(contains(caps, "vision"), contains(caps, "tools"), contains(caps, "thinking"),
                null, "Ollama /api/show");
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
