package dev.agentbus.testkit.model;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * How the scripted model server reads requests and writes whole answers: JSON, plain text and OpenAI-shaped errors.
 * Shared by every route so that all of them fail the same way a real OpenAI-compatible server does.
 */
final class Exchanges {

    static final ObjectMapper JSON = new ObjectMapper();

    private Exchanges() {
    }

    static String body(HttpExchange exchange) throws IOException {
        return new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
    }

    /** The body as JSON, or null when it is blank or not JSON (the routes answer that themselves). */
    static JsonNode parse(String body) {
        if (body == null || body.isBlank()) {
            return null;
        }
        try {
            return JSON.readTree(body);
        } catch (IOException e) {
            return null;
        }
    }

    /** An error in OpenAI's shape: {@code {"error": {"message", "type", "code", "param"}}}. */
    static void sendError(HttpExchange exchange, int status, String message, String type, String code)
            throws IOException {
        ObjectNode root = JSON.createObjectNode();
        ObjectNode error = root.putObject("error").put("message", message).put("type", type);
        if (code == null) {
            error.putNull("code");
        } else {
            error.put("code", code);
        }
        error.putNull("param");
        sendJson(exchange, status, root.toString());
    }

    static void sendMethodNotAllowed(HttpExchange exchange, String method, String path) throws IOException {
        sendError(exchange, 405, "method " + method + " not allowed on " + path, "invalid_request_error", null);
    }

    /** Sends {@code body} as JSON when it parses as JSON, else as plain text. */
    static void sendRaw(HttpExchange exchange, int status, String body) throws IOException {
        if (parse(body) != null) {
            sendJson(exchange, status, body);
        } else {
            send(exchange, status, "text/plain; charset=utf-8", body);
        }
    }

    static void sendJson(HttpExchange exchange, int status, String json) throws IOException {
        send(exchange, status, "application/json", json);
    }

    private static void send(HttpExchange exchange, int status, String contentType, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", contentType);
        exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
        if (bytes.length > 0) {
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        }
    }
}
