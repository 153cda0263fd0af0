package dev.agentbus.modelclient;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.agentbus.eventbus.outgoing.OutgoingPolicy;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * The questions the probes ask a model server beside the OpenAI API (LM Studio's, llama.cpp's and Ollama's own
 * routes): a JSON answer of a 2xx, or null for anything else, so a probe goes on to the next kind of server instead
 * of failing. Short time-outs: a probe must never hold up a model call for long.
 */
final class ServerQueries {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration TIMEOUT = Duration.ofSeconds(5);

    private final HttpClient http;
    private final String baseUrl;
    private final String apiKey;

    ServerQueries(HttpClient http, String baseUrl, String apiKey) {
        this.http = http;
        this.baseUrl = baseUrl;
        this.apiKey = apiKey == null ? "" : apiKey;
    }

    /** The OpenAI base URL, as configured ({@code …/v1}). */
    String baseUrl() {
        return baseUrl;
    }

    /** The server's root, where the non-OpenAI routes are: the base URL without its {@code /v1}. */
    String root() {
        return baseUrl.endsWith("/v1") ? baseUrl.substring(0, baseUrl.length() - 3) : baseUrl;
    }

    JsonNode get(String url) {
        return send(request(url).GET());
    }

    /** Ollama's {@code POST /api/show} for a model. */
    JsonNode ollamaShow(String model) {
        return send(request(root() + "/api/show").header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(JSON.createObjectNode().put("model", model).toString())));
    }

    private HttpRequest.Builder request(String url) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url)).timeout(TIMEOUT)
                .header(OutgoingPolicy.HOP_HEADER, OutgoingPolicy.HOP_VALUE);
        if (!apiKey.isBlank()) {
            b.header("Authorization", "Bearer " + apiKey);
        }
        return b;
    }

    private JsonNode send(HttpRequest.Builder request) {
        try {
            HttpResponse<String> r = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
            return r.statusCode() / 100 == 2 ? JSON.readTree(r.body()) : null;
        } catch (IOException | RuntimeException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }
}
