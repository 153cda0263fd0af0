package dev.agentbus.telemetry.management;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Executors;
import java.util.function.Supplier;

/**
 * A small HTTP server (the JDK's own) with two routes: {@code GET /health}, 200 {@code {"status":"UP"}} while the
 * service runs (503 with the reason when its check names a problem), and {@code GET /metrics}, the Prometheus text.
 * Anything else is a 404 with a JSON message.
 */
public final class ManagementServer implements AutoCloseable {
    private final HttpServer server;

    /**
     * @param problem null while healthy, else why not (read at each {@code /health})
     * @param metrics the Prometheus exposition text
     */
    public ManagementServer(String host, int port, Supplier<String> problem, Supplier<String> metrics)
            throws IOException {
        server = HttpServer.create(new InetSocketAddress(host, port), 16);
        server.createContext("/", exchange -> {
            try (exchange) {
                route(exchange, problem, metrics);
            }
        });
        server.setExecutor(Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "management-http");
            t.setDaemon(true);
            return t;
        }));
    }

    public ManagementServer start() {
        server.start();
        return this;
    }

    public int port() {
        return server.getAddress().getPort();
    }

    private static void route(HttpExchange exchange, Supplier<String> problem, Supplier<String> metrics)
            throws IOException {
        String path = exchange.getRequestURI().getPath();
        if (!exchange.getRequestMethod().equals("GET") && !exchange.getRequestMethod().equals("HEAD")) {
            send(exchange, 405, "application/json", "{\"message\":\"only GET\"}");
        } else if (path.equals("/health")) {
            String why = problem.get();
            send(exchange, why == null ? 200 : 503, "application/json", why == null ? "{\"status\":\"UP\"}"
                    : "{\"status\":\"DOWN\",\"message\":\"" + why.replace("\\", "\\\\").replace("\"", "\\\"") + "\"}");
        } else if (path.equals("/metrics")) {
            send(exchange, 200, "text/plain; version=0.0.4; charset=utf-8", metrics.get());
        } else {
            send(exchange, 404, "application/json", "{\"message\":\"no such path: /health or /metrics\"}");
        }
    }

    private static void send(HttpExchange exchange, int status, String type, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", type);
        boolean head = exchange.getRequestMethod().equals("HEAD");
        exchange.sendResponseHeaders(status, head ? -1 : bytes.length);
        if (!head) {
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
