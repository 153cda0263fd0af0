package dev.agentbus.gateway.mcp;

import dev.agentbus.gateway.errors.ApiException;
import dev.agentbus.gateway.sessions.InputSender;
import io.micronaut.http.HttpStatus;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema.ErrorCodes;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The API's refusals as JSON-RPC errors, so a tool of the MCP server fails for the same reasons and with the same
 * words as the route it stands for: a session that is not the caller's is "no session …", exactly as for one that
 * does not exist. The code says whose fault it is (-32602, invalid params, for what the HTTP API answers with a 4xx;
 * -32603, internal error, for a 5xx); {@code data} carries the HTTP API's status and error name, so a program tells
 * the cases apart as it does there: {@code {"status":404,"error":"not_found"}}.
 */
final class ToolFailures {
    private ToolFailures() {
    }

    static McpError of(ApiException e) {
        return of(e.status(), e.getMessage());
    }

    static McpError of(InputSender.KafkaUnavailableException e) {
        return of(HttpStatus.SERVICE_UNAVAILABLE, e.getMessage());
    }

    static McpError of(HttpStatus status, String message) {
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("status", status.getCode());
        data.put("error", status.name().toLowerCase());
        return McpError.builder(status.getCode() < 500 ? ErrorCodes.INVALID_PARAMS : ErrorCodes.INTERNAL_ERROR)
                .message(message).data(data).build();
    }
}
