package dev.agentbus.cli.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentbus.api.ApiError;
import dev.agentbus.api.ApiJson;
import dev.agentbus.events.Json;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The plumbing every area client shares: one JDK HttpClient, the base URL and bearer token, request building, and
 * the one place where an answer that is not 2xx, or not the JSON expected, becomes a {@link GatewayException} worded
 * for a person. Area clients say which route and body; this class says how it travels and how it fails, so every
 * command reports a refused token, a missing session or a busy one the same way.
 */
final class GatewayHttp {
    static final ObjectMapper JSON = Json.mapper();
    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(30);

    private final String baseUrl;
    private final String token;
    private final HttpClient http;

    GatewayHttp(String baseUrl, String token) {
        this.baseUrl = baseUrl.endsWith("/") ? baseUrl.substring(0, baseUrl.length() - 1) : baseUrl;
        this.token = token == null || token.isBlank() ? null : token.strip();
        this.http = HttpClient.newBuilder()
                // HTTP/1.1 explicitly: the default would try an h2c upgrade on every plain-http request, which some
                // proxies and servers handle badly, and buys nothing for a long-lived event stream.
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(CONNECT_TIMEOUT)
                .build();
    }

    String baseUrl() {
        return baseUrl;
    }

    HttpRequest.Builder request(String path) {
        return request(path, REQUEST_TIMEOUT);
    }

    /** A request with the token; {@code timeout} null: none (the event stream never ends by itself). */
    HttpRequest.Builder request(String path, Duration timeout) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(baseUrl + path));
        if (timeout != null) {
            b.timeout(timeout);
        }
        if (token != null) {
            b.header("Authorization", "Bearer " + token);
        }
        return b;
    }

    /** A GET that asks for JSON. */
    HttpRequest getJson(String path) {
        return request(path).header("Accept", "application/json").GET().build();
    }

    HttpRequest post(String path, JsonNode body) {
        HttpRequest.Builder b = request(path).header("Accept", "application/json");
        if (body == null) {
            return b.POST(HttpRequest.BodyPublishers.noBody()).build();
        }
        return b.header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body.toString(), StandardCharsets.UTF_8)).build();
    }

    HttpRequest put(String path, JsonNode body) {
        return request(path).header("Accept", "application/json").header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString(body.toString(), StandardCharsets.UTF_8)).build();
    }

    /**
     * Sends and checks the status; {@code sessionId} (null when the route is not a session's) turns a 404 into "no
     * such session" and names the session in a 409.
     */
    HttpResponse<String> send(HttpRequest request, String sessionId) {
        HttpResponse<String> response;
        try {
            response = http.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw GatewayException.unreachable(baseUrl, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw GatewayException.unreachable(baseUrl, e);
        }
        if (response.statusCode() / 100 != 2) {
            throw failure(response.statusCode(), response.body(), sessionId);
        }
        return response;
    }

    /** Starts a request whose body is streamed, without waiting for it. */
    CompletableFuture<HttpResponse<InputStream>> sendStreaming(HttpRequest request) {
        return http.sendAsync(request, HttpResponse.BodyHandlers.ofInputStream());
    }

    GatewayException failure(int status, String body, String sessionId) {
        String message = errorMessage(body);
        return switch (status) {
            case 401 -> GatewayException.unauthorized();
            case 404 -> sessionId != null ? GatewayException.noSession(sessionId)
                    : new GatewayException(GatewayException.Kind.HTTP, 404,
                    "the gateway at " + baseUrl + " answered 404 Not Found" + suffix(message)
                            + " (is --url pointing at an agentbus gateway?)");
            case 409 -> new GatewayException(GatewayException.Kind.CONFLICT, 409,
                    message != null ? message : "session " + sessionId + " is busy");
            default -> new GatewayException(GatewayException.Kind.HTTP, status,
                    "the gateway answered HTTP " + status + suffix(message));
        };
    }

    /** The gateway's {@link ApiError} body, or the start of whatever else it sent. */
    private static String errorMessage(String body) {
        if (body == null || body.isBlank()) {
            return null;
        }
        try {
            if (JSON.readTree(body) instanceof ObjectNode) {
                ApiError error = ApiJson.read(body, ApiError.class);
                return error.message() != null && !error.message().isBlank() ? error.message() : error.error();
            }
        } catch (IOException notJson) {
            // fall through to the raw text
        }
        String flat = body.strip().replaceAll("\\s+", " ");
        return flat.length() > 200 ? flat.substring(0, 199) + "…" : flat;
    }

    private static String suffix(String message) {
        return message == null || message.isBlank() ? "" : ": " + message;
    }

    /** The answer as its api record, or a PROTOCOL error when it is not JSON of that shape. */
    static <T> T read(HttpResponse<String> response, Class<T> type) {
        try {
            return ApiJson.read(response.body(), type);
        } catch (IOException e) {
            throw new GatewayException(GatewayException.Kind.PROTOCOL, response.statusCode(),
                    "the gateway sent a response that is not " + type.getSimpleName() + " JSON: "
                            + GatewayException.describe(e));
        }
    }

    /** The answer as a tree, for routes whose answer has no api record. */
    static JsonNode json(HttpResponse<String> response) {
        try {
            return JSON.readTree(response.body());
        } catch (IOException e) {
            throw new GatewayException(GatewayException.Kind.PROTOCOL, response.statusCode(),
                    "the gateway sent a response that is not JSON: " + GatewayException.describe(e));
        }
    }

    /** The accepted input's id from a 202 answer, or null when the gateway sent no body. */
    static String inputId(HttpResponse<String> response) {
        return response.body() == null || response.body().isBlank() ? null
                : read(response, dev.agentbus.api.AcceptedInput.class).inputId();
    }

    /** The lines of a JSON Lines answer, blank ones dropped. */
    static List<String> lines(String body) {
        return body == null ? List.of() : body.lines().filter(l -> !l.isBlank()).toList();
    }

    static String sessionPath(String sessionId) {
        // Session ids are opaque; encode them so an odd one cannot change the path. URLEncoder is for forms ('+').
        return "/api/v1/sessions/" + segment(sessionId);
    }

    /** One path segment, encoded: URLEncoder writes a space as '+', which a path does not decode. */
    static String segment(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
    }

    /** A query parameter's value (a '+' is a space in a query, so URLEncoder's form encoding fits). */
    static String query(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }
}
