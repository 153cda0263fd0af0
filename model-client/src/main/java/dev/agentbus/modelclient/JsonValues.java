package dev.agentbus.modelclient;

import com.fasterxml.jackson.databind.JsonNode;
import com.openai.core.JsonField;
import com.openai.core.JsonValue;
import java.util.Map;
import java.util.Optional;

/**
 * Typed reads of the SDK's {@link JsonValue}. Needed because {@code JsonValue} extends the raw
 * {@code JsonField} (its Kotlin type argument is {@code Nothing}), so from Java its {@code asString()}
 * and {@code asObject()} return raw {@code Optional}s.
 */
final class JsonValues {

    private JsonValues() {}

    static Optional<String> string(JsonValue value) {
        if (value == null) {
            return Optional.empty();
        }
        Optional<?> string = value.asString();
        return string.map(String.class::cast);
    }

    @SuppressWarnings("unchecked")
    static Optional<Map<String, JsonValue>> object(JsonValue value) {
        if (value == null) {
            return Optional.empty();
        }
        Optional<?> object = value.asObject();
        return object.map(map -> (Map<String, JsonValue>) map);
    }

    /**
     * Tool-call arguments as text. OpenAI sends a JSON string; a few servers send the JSON object
     * itself, which the SDK then holds as an "unknown" value, so that is turned back into JSON text.
     */
    static String arguments(JsonField<String> field) {
        Optional<String> known = field.asKnown();
        if (known.isPresent()) {
            return known.get();
        }
        return field.asUnknown().map(JsonValues::argumentsText).orElse(null);
    }

    /** Like {@link #arguments(JsonField)} for a value read from raw JSON. */
    static String argumentsText(JsonValue value) {
        if (value == null || value.isMissing() || value.isNull()) {
            return null;
        }
        Optional<String> string = string(value);
        return string.orElseGet(() -> value.convert(JsonNode.class).toString());
    }
}
