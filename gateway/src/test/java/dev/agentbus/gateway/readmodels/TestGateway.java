package dev.agentbus.gateway.readmodels;

import dev.agentbus.gateway.GatewayApplication;
import io.micronaut.context.ApplicationContext;
import io.micronaut.runtime.server.EmbeddedServer;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/** A real gateway application context on a free port, as the standalone launcher starts it, plus a tiny client. */
public final class TestGateway implements AutoCloseable {
    public static final String TOKEN = "read-models-test-token";

    private final ApplicationContext context;
    private final String url;
    private final HttpClient http = HttpClient.newHttpClient();

    /** {@code jdbcUrl} null: a gateway without PostgreSQL. */
    public TestGateway(String bootstrapServers, Path dataDir, String jdbcUrl) {
        this(bootstrapServers, dataDir, jdbcUrl, Map.of());
    }

    /** With extra settings, such as {@code agentbus.admin-password}. */
    public TestGateway(String bootstrapServers, Path dataDir, String jdbcUrl, Map<String, Object> extra) {
        Map<String, Object> props = new HashMap<>(GatewayApplication.properties());
        props.put("agentbus.kafka.bootstrap-servers", bootstrapServers);
        props.put("agentbus.data-dir", dataDir.toString());
        props.put("agentbus.gateway.port", "-1");
        props.put("agentbus.gateway.token", TOKEN);
        if (jdbcUrl != null) {
            props.put("agentbus.db.url", jdbcUrl);
        }
        props.putAll(extra);
        context = ApplicationContext.builder().properties(props).start();
        EmbeddedServer server = context.getBean(EmbeddedServer.class);
        server.start();
        url = server.getURL().toString();
    }

    public String url() {
        return url;
    }

    public ApplicationContext context() {
        return context;
    }

    public HttpResponse<String> get(String path) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(URI.create(url + path)).header("Authorization", "Bearer " + TOKEN)
                .GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    public HttpResponse<String> getWithoutToken(String path) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(URI.create(url + path)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
    }

    public HttpResponse<String> post(String path) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(URI.create(url + path)).header("Authorization", "Bearer " + TOKEN)
                .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
    }

    /** A request with the token and a JSON body. */
    public HttpResponse<String> send(String method, String path, String json) throws IOException,
            InterruptedException {
        return http.send(HttpRequest.newBuilder(URI.create(url + path)).header("Authorization", "Bearer " + TOKEN)
                .header("Content-Type", "application/json")
                .method(method, HttpRequest.BodyPublishers.ofString(json)).build(), HttpResponse.BodyHandlers.ofString());
    }

    /** The {@code message} of an error answer, after checking that it is the API's JSON error. */
    public static String errorMessage(HttpResponse<String> response) throws IOException {
        if (!response.headers().firstValue("content-type").orElse("").contains("application/json")) {
            throw new AssertionError("not a JSON error: " + response.statusCode() + " " + response.body());
        }
        return dev.agentbus.events.Json.mapper().readTree(response.body()).get("message").asText();
    }

    @Override
    public void close() {
        context.close();
    }
}
