package dev.agentbus.gateway.mcp;

import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.server.McpStatelessServerHandler;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.ErrorCodes;
import io.modelcontextprotocol.spec.McpStatelessServerTransport;
import reactor.core.publisher.Mono;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * MCP's streamable HTTP transport in its stateless form, for a Micronaut controller: one POST carries one JSON-RPC
 * message, and its answer is one JSON body (200 with the response to a request, 202 with none for a notification).
 * No {@code Mcp-Session-Id} is handed out and no event stream is opened, so nothing about a client is kept between
 * requests and any gateway replica can answer any of them.
 *
 * <p>Why this class: the SDK's own stateless transport ({@code HttpServletStatelessServerTransport}) is a servlet, and
 * the gateway is Micronaut on Netty with no servlet container. This is that class's exchange behind the SDK's
 * {@link McpStatelessServerTransport} interface, so the SDK's stateless server still does all of MCP itself
 * (initialize, tools/list, tools/call with argument and result validation, ping, its errors). The caller's user id,
 * proved by the gateway's authentication filter, travels to the tools in the {@link McpTransportContext}.
 */
final class StatelessHttpTransport implements McpStatelessServerTransport {

    /** The HTTP answer to one message: a status, and a JSON body (null: none). */
    record Answer(int status, String body) {
    }

    private final McpJsonMapper json;
    private volatile McpStatelessServerHandler handler;
    private volatile boolean closing;

    StatelessHttpTransport(McpJsonMapper json) {
        this.json = json;
    }

    @Override
    public void setMcpHandler(McpStatelessServerHandler handler) {
        this.handler = handler;
    }

    @Override
    public Mono<Void> closeGracefully() {
        return Mono.fromRunnable(() -> closing = true);
    }

    /** Answers one POSTed message of {@code user}; blocks while the tool works (a turn, a sandbox call). */
    Answer handle(String user, String body) {
        if (closing || handler == null) {
            return error(503, ErrorCodes.INTERNAL_ERROR, "the gateway is shutting down");
        }
        if (body == null || body.isBlank()) {
            return error(400, ErrorCodes.PARSE_ERROR, "the body must be one JSON-RPC message");
        }
        if (body.stripLeading().startsWith("[")) {
            return error(400, ErrorCodes.INVALID_REQUEST, "JSON-RPC batches are not taken: send one message per "
                    + "request (MCP 2025-06-18 dropped batching)");
        }
        McpSchema.JSONRPCMessage message;
        try {
            message = McpSchema.deserializeJsonRpcMessage(json, body);
        } catch (IOException e) {
            return error(400, ErrorCodes.PARSE_ERROR, "the body is not valid JSON");
        } catch (IllegalArgumentException e) {
            return error(400, ErrorCodes.INVALID_REQUEST, "not a JSON-RPC request or notification: "
                    + e.getMessage());
        }
        McpTransportContext context = McpTransportContext.create(Map.of(ToolCall.USER, user));
        return switch (message) {
            case McpSchema.JSONRPCRequest request -> {
                McpSchema.JSONRPCResponse response = handler.handleRequest(context, request)
                        .contextWrite(c -> c.put(McpTransportContext.KEY, context)).block();
                yield new Answer(200, write(response));
            }
            case McpSchema.JSONRPCNotification notification -> {
                handler.handleNotification(context, notification)
                        .contextWrite(c -> c.put(McpTransportContext.KEY, context)).block();
                yield new Answer(202, null);
            }
            default -> error(400, ErrorCodes.INVALID_REQUEST, "this server sends no requests, so it takes no "
                    + "responses: only requests and notifications");
        };
    }

    /** A JSON-RPC error for a message that could not be read, so it has no id to answer. */
    private Answer error(int status, int code, String message) {
        Map<String, Object> error = new LinkedHashMap<>();
        error.put("code", code);
        error.put("message", message);
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("jsonrpc", McpSchema.JSONRPC_VERSION);
        body.put("id", null);
        body.put("error", error);
        return new Answer(status, write(body));
    }

    private String write(Object value) {
        try {
            return json.writeValueAsString(value);
        } catch (IOException e) {
            throw new IllegalStateException("cannot write a JSON-RPC answer", e);
        }
    }
}
