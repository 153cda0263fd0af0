package dev.agentbus.telemetry.management;

import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The management port: /health follows the check, /metrics serves the text, anything else is a JSON 404. */
class ManagementServerTest {

    @Test
    void serves_health_and_metrics() throws Exception {
        AtomicReference<String> problem = new AtomicReference<>();
        try (ManagementServer server = new ManagementServer("127.0.0.1", 0, problem::get,
                () -> "agentbus_approvals_pending 0.0\n").start()) {
            HttpClient http = HttpClient.newHttpClient();
            String base = "http://127.0.0.1:" + server.port();
            HttpResponse<String> health = http.send(HttpRequest.newBuilder(URI.create(base + "/health")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(health.statusCode()).isEqualTo(200);
            assertThat(health.body()).isEqualTo("{\"status\":\"UP\"}");

            problem.set("Kafka \"unreachable\"");
            HttpResponse<String> down = http.send(HttpRequest.newBuilder(URI.create(base + "/health")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(down.statusCode()).isEqualTo(503);
            assertThat(down.body()).contains("\"status\":\"DOWN\"").contains("Kafka \\\"unreachable\\\"");

            HttpResponse<String> metrics = http.send(HttpRequest.newBuilder(URI.create(base + "/metrics")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(metrics.statusCode()).isEqualTo(200);
            assertThat(metrics.headers().firstValue("Content-Type")).hasValueSatisfying(t -> assertThat(t)
                    .startsWith("text/plain"));
            assertThat(metrics.body()).contains("agentbus_approvals_pending 0.0");

            HttpResponse<String> other = http.send(HttpRequest.newBuilder(URI.create(base + "/admin")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(other.statusCode()).isEqualTo(404);
            assertThat(other.body()).contains("\"message\"");
        }
    }

    @Test
    void the_port_setting_is_checked() {
        assertThat(new ManagementSettings(0, "").host()).isEqualTo("0.0.0.0");
        assertThatThrownBy(() -> new ManagementSettings(70000, "0.0.0.0"))
                .hasMessage("agentbus.management.port must be between 0 and 65535, not 70000");
    }
}
