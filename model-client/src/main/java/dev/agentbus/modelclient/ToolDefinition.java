package dev.agentbus.modelclient;

import java.util.Objects;

/**
 * A function the model may call.
 *
 * @param name                 the function name the model will use
 * @param description          what the tool does, for the model
 * @param parametersJsonSchema a JSON Schema object as text, e.g.
 *                             {@code {"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}};
 *                             blank means "no parameters"
 */
public record ToolDefinition(String name, String description, String parametersJsonSchema) {

    public ToolDefinition {
        Objects.requireNonNull(name, "name");
        description = description == null ? "" : description;
        parametersJsonSchema = parametersJsonSchema == null || parametersJsonSchema.isBlank()
                ? "{\"type\":\"object\",\"properties\":{}}"
                : parametersJsonSchema;
    }
}
