package dev.agentbus.gateway.readmodels;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentbus.broker.EmbeddedKafkaBroker;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** A gateway without PostgreSQL: everything works as before, and the read-model endpoints say why they cannot. */
class NotConfiguredIT {
    @TempDir
    static Path dir;
    static EmbeddedKafkaBroker broker;
    static TestGateway gateway;

    @BeforeAll
    static void start() {
        broker = EmbeddedKafkaBroker.builder().dataDir(dir.resolve("kafka")).port(0).build();
        broker.start();
        gateway = new TestGateway(broker.bootstrapServers(), dir, null);
    }

    @AfterAll
    static void stop() {
        if (gateway != null) {
            gateway.close();
        }
        broker.close();
    }

    @Test
    void read_model_endpoints_answer_503_saying_postgresql_is_not_configured() throws Exception {
        for (String path : List.of("/api/v1/search?q=x", "/api/v1/analytics/tokens", "/api/v1/audit",
                "/api/v1/audit/export", "/api/v1/read-models/sessions", "/api/v1/admin/rebuild-projections")) {
            HttpResponse<String> r = gateway.get(path);
            assertThat(r.statusCode()).as(path).isEqualTo(503);
            JsonNode body = ReadModelEndpointsIT.json(r);
            assertThat(body.get("error").asText()).isEqualTo("service_unavailable");
            assertThat(body.get("message").asText()).contains("PostgreSQL is not configured").contains("AGENTBUS_DB_URL");
        }
        assertThat(gateway.post("/api/v1/admin/rebuild-projections").statusCode()).isEqualTo(503);
    }

    @Test
    void the_rest_of_the_gateway_works_as_before() throws Exception {
        HttpResponse<String> sessions = gateway.get("/api/v1/sessions");

        assertThat(sessions.statusCode()).isEqualTo(200);
        assertThat(sessions.body()).isEqualTo("[]");
    }
}
