package dev.agentbus.api;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.agentbus.events.Json;

/**
 * The JSON of the HTTP API, for both ends: the gateway writes every answer with {@link #write}, clients read them
 * with {@link #read}. Dates are ISO-8601 strings; fields a client does not know are ignored (tolerant reading).
 */
public final class ApiJson {
    private ApiJson() {
    }

    public static String write(Object answer) {
        try {
            return Json.mapper().writeValueAsString(answer);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write " + answer.getClass().getSimpleName() + " as JSON", e);
        }
    }

    /** @throws JsonProcessingException when the text is not JSON, or not of the answer's shape */
    public static <T> T read(String json, Class<T> type) throws JsonProcessingException {
        return Json.mapper().readValue(json, type);
    }

    /** An answer that is an array, such as the session list. */
    public static <T> java.util.List<T> readList(String json, Class<T> type) throws JsonProcessingException {
        return Json.mapper().readValue(json,
                Json.mapper().getTypeFactory().constructCollectionType(java.util.List.class, type));
    }
}
