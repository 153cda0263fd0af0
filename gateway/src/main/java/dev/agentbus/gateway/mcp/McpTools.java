package dev.agentbus.gateway.mcp;

import dev.agentbus.gateway.errors.ApiException;
import dev.agentbus.gateway.sessions.InputSender;
import io.micronaut.http.HttpStatus;
import io.modelcontextprotocol.server.McpStatelessServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import io.modelcontextprotocol.spec.McpSchema.ToolAnnotations;

/** What every tool of the MCP server shares: how a handler is called, and how its refusals become errors. */
final class McpTools {
    private McpTools() {
    }

    /** A tool's work, given the call; it may wait (for a turn, for the sandbox-worker). */
    @FunctionalInterface
    interface Handler {
        CallToolResult handle(ToolCall call) throws InterruptedException;
    }

    /**
     * The tool with its handler, whose refusals (the API's {@link ApiException}s, Kafka not taking an input) become
     * JSON-RPC errors ({@link ToolFailures}); anything else is a bug, and the SDK answers it with an internal error.
     */
    static SyncToolSpecification tool(Tool tool, Handler handler) {
        return new SyncToolSpecification(tool, (context, request) -> {
            try {
                return handler.handle(ToolCall.of(context, request));
            } catch (ApiException e) {
                throw ToolFailures.of(e);
            } catch (InputSender.KafkaUnavailableException e) {
                throw ToolFailures.of(e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw ToolFailures.of(HttpStatus.SERVICE_UNAVAILABLE, "the gateway is shutting down");
            }
        });
    }

    /** The hints a client shows its user before a call (MCP's tool annotations); none of them is a promise. */
    static ToolAnnotations annotations(boolean readOnly, boolean destructive, boolean idempotent) {
        return new ToolAnnotations(null, readOnly, readOnly ? null : destructive, idempotent, false, null);
    }
}
