package dev.agentbus.gateway.mcp;

import dev.agentbus.gateway.errors.ApiException;
import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;

import java.util.Map;

/**
 * One call of a tool of the MCP server: who calls (the user the gateway's authentication filter proved, carried in
 * the transport context) and the arguments, read with the API's errors for what is missing or of the wrong type. The
 * SDK has checked the arguments against the tool's input schema already; these checks say the same in the words of
 * the rest of the API, for a client that skipped the schema.
 */
record ToolCall(String user, Map<String, Object> arguments) {
    /** The key of the caller's user id in the {@link McpTransportContext}. */
    static final String USER = "agentbus.user";

    static ToolCall of(McpTransportContext context, CallToolRequest request) {
        Object user = context.get(USER);
        if (!(user instanceof String id)) {
            // The controller always puts one in: a call without it did not come through the authentication filter.
            throw new IllegalStateException("an MCP call without an authenticated user");
        }
        return new ToolCall(id, request.arguments() == null ? Map.of() : request.arguments());
    }

    String string(String name) {
        String value = optionalString(name);
        if (value == null || value.isBlank()) {
            throw ApiException.badRequest(name + " is required");
        }
        return value;
    }

    String optionalString(String name) {
        Object value = arguments.get(name);
        if (value == null) {
            return null;
        }
        if (!(value instanceof String text)) {
            throw ApiException.badRequest(name + " must be a string");
        }
        return text;
    }

    Integer optionalInt(String name) {
        Object value = arguments.get(name);
        if (value == null) {
            return null;
        }
        if (!(value instanceof Number n) || n.doubleValue() != Math.rint(n.doubleValue())) {
            throw ApiException.badRequest(name + " must be a whole number");
        }
        return (int) Math.clamp(n.longValue(), Integer.MIN_VALUE, Integer.MAX_VALUE);
    }
}
