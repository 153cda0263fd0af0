package dev.agentbus.sandbox.tools;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Reads tool arguments as the model sent them. Tolerant where the intent is unambiguous (a number sent as
 * {@code "10"}, a boolean as {@code "true"}: models do that), strict and explicit otherwise, with messages that name
 * the argument so the model can fix its call.
 */
final class Args {
    private final JsonNode node;

    private Args(JsonNode node) {
        this.node = node;
    }

    static Args of(JsonNode arguments) throws ToolFailure {
        if (arguments == null || arguments.isNull() || arguments.isMissingNode()) {
            return new Args(null);
        }
        if (!arguments.isObject()) {
            throw new ToolFailure("arguments must be a JSON object, got " + arguments.getNodeType().name()
                    .toLowerCase());
        }
        return new Args(arguments);
    }

    private JsonNode get(String name) {
        JsonNode value = node == null ? null : node.get(name);
        return value == null || value.isNull() ? null : value;
    }

    String requiredString(String name) throws ToolFailure {
        return optionalString(name).orElseThrow(() -> new ToolFailure("missing required argument: " + name));
    }

    Optional<String> optionalString(String name) throws ToolFailure {
        JsonNode value = get(name);
        if (value == null) {
            return Optional.empty();
        }
        if (!value.isTextual()) {
            throw new ToolFailure("argument '" + name + "' must be a string");
        }
        return Optional.of(value.asText());
    }

    /** A JSON array of strings; a single string is taken as a list of one (models do that). */
    Optional<List<String>> optionalStringList(String name) throws ToolFailure {
        JsonNode value = get(name);
        if (value == null) {
            return Optional.empty();
        }
        if (value.isTextual()) {
            return Optional.of(List.of(value.asText()));
        }
        if (!value.isArray()) {
            throw new ToolFailure("argument '" + name + "' must be an array of strings");
        }
        List<String> items = new ArrayList<>();
        for (JsonNode item : value) {
            if (!item.isTextual()) {
                throw new ToolFailure("argument '" + name + "' must be an array of strings; element "
                        + items.size() + " is " + item.getNodeType().name().toLowerCase());
            }
            items.add(item.asText());
        }
        return Optional.of(List.copyOf(items));
    }

    Optional<Integer> optionalInt(String name) throws ToolFailure {
        JsonNode value = get(name);
        if (value == null) {
            return Optional.empty();
        }
        if (value.isIntegralNumber() && value.canConvertToInt()) {
            return Optional.of(value.intValue());
        }
        if (value.isTextual()) {
            try {
                return Optional.of(Integer.parseInt(value.asText().trim()));
            } catch (NumberFormatException e) {
                // fall through to the error below
            }
        }
        throw new ToolFailure("argument '" + name + "' must be an integer");
    }

    boolean optionalBoolean(String name, boolean fallback) throws ToolFailure {
        JsonNode value = get(name);
        if (value == null) {
            return fallback;
        }
        if (value.isBoolean()) {
            return value.booleanValue();
        }
        if (value.isTextual() && (value.asText().equals("true") || value.asText().equals("false"))) {
            return Boolean.parseBoolean(value.asText());
        }
        throw new ToolFailure("argument '" + name + "' must be true or false");
    }
}
