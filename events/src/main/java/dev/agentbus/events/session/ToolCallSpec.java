package dev.agentbus.events.session;

/** One tool call as the model asked for it: the id it chose, the tool name and the raw JSON arguments. */
public record ToolCallSpec(String id, String name, String arguments) {
}
