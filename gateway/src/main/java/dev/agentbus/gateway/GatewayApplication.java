package dev.agentbus.gateway;

import io.micronaut.runtime.Micronaut;

import java.util.Map;

/**
 * Starts the gateway: the HTTP API documented in docs/api.md (sessions, messages, SSE event streams, memory, file
 * uploads and downloads, export, import, fork and rewind, the PostgreSQL read models, health). It turns requests into
 * inputs on Kafka topics and answers queries from its own view of the session log; it never calls another service
 * directly. Its answers are the records of the api module. It serves the web UI at {@code /}.
 */
public final class GatewayApplication {
    public static final String SERVICE = "gateway";

    private GatewayApplication() {
    }

    public static void main(String[] args) {
        Micronaut.build(args).banner(false).mainClass(GatewayApplication.class).properties(properties()).start();
    }

    /** The Micronaut settings every gateway context needs, standalone or not. */
    public static Map<String, Object> properties() {
        return Map.of(
                "agentbus.service", SERVICE,
                "micronaut.server.port", "${agentbus.gateway.port:8080}",
                "micronaut.server.host", "${agentbus.gateway.host:127.0.0.1}",
                // Bodies over this are refused with 413 before they are read into memory.
                "micronaut.server.max-request-size", "${agentbus.gateway.max-body-bytes:1048576}",
                "micronaut.server.idle-timeout", "-1s",
                // The web UI (docs/ui.md): static ES modules and CSS from the jar, at /, after every route.
                "micronaut.router.static-resources.web.enabled", "true",
                "micronaut.router.static-resources.web.paths", "classpath:web",
                "micronaut.router.static-resources.web.mapping", "/**");
    }
}
