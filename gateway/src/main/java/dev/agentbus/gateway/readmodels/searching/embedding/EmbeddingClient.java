package dev.agentbus.gateway.readmodels.searching.embedding;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentbus.events.Json;
import dev.agentbus.gateway.readmodels.searching.ranking.Vectors;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Asks an OpenAI-compatible server for embeddings: {@code POST <baseUrl>/embeddings} with {@code {"model",
 * "input": [texts]}}, answered with one {@code data} item per text, each with its {@code index}. Every server this
 * project names (LM Studio, Ollama, vLLM, llama.cpp with {@code --embeddings}) speaks it. Vectors come back
 * normalised ({@link Vectors#normalised}), whatever the server did.
 */
public final class EmbeddingClient implements AutoCloseable {
    /** The server could not give the vectors; {@code rejected} when it answered 4xx (the input itself is the cause). */
    public static final class EmbeddingException extends Exception {
        private final boolean rejected;

        EmbeddingException(String message, boolean rejected) {
            super(message);
            this.rejected = rejected;
        }

        public boolean rejected() {
            return rejected;
        }
    }

    private final String baseUrl;
    private final String apiKey;
    private final String model;
    private final Duration timeout;
    private final HttpClient http;

    public EmbeddingClient(String baseUrl, String apiKey, String model, Duration timeout) {
        this.baseUrl = baseUrl;
        this.apiKey = apiKey == null ? "" : apiKey;
        this.model = model;
        this.timeout = timeout;
        this.http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(timeout).build();
    }

    public String model() {
        return model;
    }

    /** One vector per text, in the texts' order. */
    public List<float[]> embed(List<String> texts) throws EmbeddingException, InterruptedException {
        if (texts.isEmpty()) {
            return List.of();
        }
        ObjectNode body = Json.mapper().createObjectNode().put("model", model);
        ArrayNode input = body.putArray("input");
        texts.forEach(input::add);
        HttpRequest.Builder post = HttpRequest.newBuilder(URI.create(baseUrl + "/embeddings")).timeout(timeout)
                .header("Content-Type", "application/json").header("Accept", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body.toString()));
        if (!apiKey.isBlank()) {
            post.header("Authorization", "Bearer " + apiKey);
        }
        HttpResponse<String> answer;
        try {
            answer = http.send(post.build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new EmbeddingException("the model server did not answer POST /embeddings: "
                    + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage()), false);
        }
        int status = answer.statusCode();
        if (status / 100 != 2) {
            throw new EmbeddingException("the model server answered POST /embeddings (model '" + model
                    + "') with HTTP " + status + ": " + cut(answer.body()), status / 100 == 4);
        }
        return parse(answer.body(), texts.size());
    }

    private List<float[]> parse(String body, int expected) throws EmbeddingException {
        JsonNode data;
        try {
            data = Json.mapper().readTree(body).path("data");
        } catch (IOException e) {
            throw new EmbeddingException("the model server's embeddings answer is not JSON", false);
        }
        if (!data.isArray() || data.size() != expected) {
            throw new EmbeddingException("the model server's embeddings answer has " + (data.isArray()
                    ? data.size() : "no") + " vectors for " + expected + " texts", false);
        }
        float[][] out = new float[expected][];
        for (int i = 0; i < data.size(); i++) {
            JsonNode item = data.get(i);
            int index = item.path("index").asInt(i);
            JsonNode values = item.path("embedding");
            if (index < 0 || index >= expected || out[index] != null || !values.isArray() || values.isEmpty()) {
                throw new EmbeddingException("the model server's embeddings answer has a bad item at " + i, false);
            }
            float[] v = new float[values.size()];
            for (int j = 0; j < v.length; j++) {
                v[j] = (float) values.get(j).asDouble();
            }
            out[index] = Vectors.normalised(v);
        }
        return new ArrayList<>(List.of(out));
    }

    private static String cut(String text) {
        String t = text == null ? "" : text.strip();
        return t.length() > 300 ? t.substring(0, 300) + "…" : t;
    }

    @Override
    public void close() {
        http.close();
    }
}
