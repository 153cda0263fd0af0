package dev.agentbus.events.tools;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentbus.events.Json;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Tool arguments shortened for people and the model to read. A user's {@code upload} carries the whole file as
 * base64 in its arguments; telling the model "the user ran upload with {…}" must not put half a megabyte into its
 * context. Pure; the arguments themselves stay whole in the log.
 */
public final class ToolArguments {
    /** Longer string values are replaced by a note of their length. */
    public static final int MAX_VALUE_CHARS = 200;

    private ToolArguments() {
    }

    /**
     * The arguments (a JSON object as text) with every string value longer than {@link #MAX_VALUE_CHARS} replaced
     * by {@code "<N characters>"}; text that is not a JSON object is cut to that length.
     */
    public static String abbreviated(String arguments) {
        if (arguments == null) {
            return "{}";
        }
        JsonNode node;
        try {
            node = Json.mapper().readTree(arguments);
        } catch (IOException e) {
            node = null;
        }
        if (node == null || !node.isObject()) {
            return arguments.length() <= MAX_VALUE_CHARS ? arguments
                    : arguments.substring(0, MAX_VALUE_CHARS) + "… <" + arguments.length() + " characters>";
        }
        ObjectNode copy = (ObjectNode) node.deepCopy();
        List<String> names = new ArrayList<>();
        copy.fieldNames().forEachRemaining(names::add);
        for (String name : names) {
            JsonNode value = copy.get(name);
            if (value.isTextual() && value.asText().length() > MAX_VALUE_CHARS) {
                copy.put(name, "<" + value.asText().length() + " characters>");
            }
        }
        return copy.toString();
    }
}
