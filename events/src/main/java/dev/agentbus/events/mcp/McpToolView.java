package dev.agentbus.events.mcp;

/**
 * One tool of an MCP server as the session knows it: what the model is offered, and what the worker calls.
 *
 * @param name             the name the model sees, {@code mcp__<server>__<tool>} ({@link McpToolNames#of})
 * @param tool             the server's own name for it, which the call uses
 * @param description      the server's description, for the model
 * @param parametersSchema the JSON schema of its arguments, as the server gave it
 * @param readOnly         the server says the tool changes nothing ({@code readOnlyHint}): it is then LOW risk for
 *                         approvals; any other MCP tool is HIGH risk, since what it does is out of Agentbus's sight
 */
public record McpToolView(String name, String tool, String description, String parametersSchema, boolean readOnly) {
    public McpToolView {
        description = description == null ? "" : description;
        parametersSchema = parametersSchema == null || parametersSchema.isBlank()
                ? "{\"type\":\"object\",\"properties\":{}}" : parametersSchema;
    }
}
