package dev.agentbus.gateway.auth;

import dev.agentbus.gateway.GatewayApplication;
import dev.agentbus.gateway.KafkaFacingBeans;
import dev.agentbus.testkit.settings.SettingsContext;
import io.micronaut.context.ApplicationContext;
import io.micronaut.runtime.server.EmbeddedServer;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.HashMap;
import java.util.Map;

/**
 * The real gateway's HTTP server and request filters on a free port, with its Kafka-facing beans left out (so no
 * broker and no database): enough for the routes that need neither, such as {@code GET /api/v1/me}, to show what
 * the front door ({@link AuthenticationFilter}) does to a request.
 */
final class GatewayWithoutKafka implements AutoCloseable {
    private final ApplicationContext context;
    private final URI url;
    private final HttpClient http = HttpClient.newHttpClient();

    GatewayWithoutKafka(Map<String, String> settings) {
        Map<String, String> properties = new HashMap<>();
        GatewayApplication.properties().forEach((k, v) -> properties.put(k, String.valueOf(v)));
        properties.put("agentbus.gateway.port", "-1");
        properties.putAll(settings);
        context = SettingsContext.start("gateway", properties, KafkaFacingBeans.ALL);
        EmbeddedServer server = context.getBean(EmbeddedServer.class);
        server.start();
        url = server.getURI();
    }

    /** {@code GET path}, with {@code Authorization: Bearer <token>} unless the token is null. */
    HttpResponse<String> get(String path, String token) throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(url.resolve(path)).GET();
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Override
    public void close() {
        context.close();
    }
}
