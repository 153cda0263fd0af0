package dev.agentbus.gateway.context;

import dev.agentbus.eventbus.KafkaSettings;
import dev.agentbus.events.Json;
import dev.agentbus.events.input.InputEnvelope;
import dev.agentbus.events.input.SessionInput;
import dev.agentbus.events.session.SessionEvent;
import dev.agentbus.gateway.readmodels.Await;
import dev.agentbus.gateway.readmodels.LogWriter;
import dev.agentbus.gateway.readmodels.SessionInputsReader;
import dev.agentbus.gateway.readmodels.TestBroker;
import dev.agentbus.gateway.readmodels.TestGateway;
import dev.agentbus.gateway.readmodels.TestPostgres;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The context routes against a real broker and gateway (no orchestrator: what they write is read back from
 * {@code agentbus.session-inputs}). Bad input is a 400 or 413 JSON error, compaction during a turn a 409.
 */
class ContextRoutesIT {
    static final Duration WAIT = Duration.ofSeconds(60);

    @TempDir
    static Path dir;
    static TestBroker broker;
    static TestGateway gateway;
    static String idle;
    static String running;

    @BeforeAll
    static void start() throws Exception {
        broker = TestBroker.start(dir.resolve("kafka"));
        KafkaSettings kafka = broker.kafka();
        gateway = new TestGateway(broker.bootstrapServers(), dir.resolve("gw"), TestPostgres.newDatabase());
        idle = UUID.randomUUID().toString();
        running = UUID.randomUUID().toString();
        try (LogWriter log = new LogWriter(kafka)) {
            log.append(idle, "local", new SessionEvent.SessionCreated("idle"));
            log.append(running, "local", new SessionEvent.SessionCreated("running"));
            log.append(running, "local", new SessionEvent.UserMessagePosted("work"));
            log.append(running, "local", new SessionEvent.ModelCallStarted("r1", 1));
        }
        Await.until("both sessions in the view", WAIT,
                () -> gateway.get("/api/v1/sessions/" + running).body().contains("RUNNING")
                        && gateway.get("/api/v1/sessions/" + idle).body().contains("IDLE"));
    }

    @AfterAll
    static void stop() {
        if (gateway != null) {
            gateway.close();
        }
        broker.close();
    }

    @Test
    void an_unknown_preset_is_400_at_creation_and_on_change_and_a_too_long_prompt_413() throws Exception {
        HttpResponse<String> create = gateway.send("POST", "/api/v1/sessions", "{\"preset\":\"poetry\"}");
        assertThat(create.statusCode()).isEqualTo(400);
        assertThat(TestGateway.errorMessage(create)).isEqualTo("unknown preset 'poetry'; the presets are research, "
                + "code, write, analyze, architect (GET /api/v1/presets)");

        HttpResponse<String> change = gateway.send("PUT", "/api/v1/sessions/" + idle + "/system-prompt",
                "{\"preset\":\"nope\"}");
        assertThat(change.statusCode()).isEqualTo(400);
        assertThat(TestGateway.errorMessage(change)).startsWith("unknown preset 'nope'");

        HttpResponse<String> tooLong = gateway.send("PUT", "/api/v1/sessions/" + idle + "/system-prompt",
                Json.mapper().writeValueAsString(Map.of("systemPrompt", "x".repeat(16_001))));
        assertThat(tooLong.statusCode()).isEqualTo(413);
        assertThat(TestGateway.errorMessage(tooLong)).isEqualTo("systemPrompt is longer than 16000 characters");
    }

    @Test
    void a_good_system_prompt_is_written_as_an_input_with_the_presets_own_name() throws Exception {
        HttpResponse<String> r = gateway.send("PUT", "/api/v1/sessions/" + running + "/system-prompt",
                "{\"preset\":\"ARCHITECT\",\"systemPrompt\":\"Be brief.\"}");
        assertThat(r.statusCode()).isEqualTo(202);

        List<InputEnvelope> inputs = SessionInputsReader.first(broker.bootstrapServers(), running, 1, WAIT);
        assertThat(inputs.getFirst().input()).isEqualTo(new SessionInput.SetSystemPrompt("architect", "Be brief."));
    }

    @Test
    void compacting_during_a_turn_is_409_and_a_missing_session_404() throws Exception {
        HttpResponse<String> busy = gateway.send("POST", "/api/v1/sessions/" + running + "/compact", "");
        assertThat(busy.statusCode()).isEqualTo(409);
        assertThat(TestGateway.errorMessage(busy)).isEqualTo("session " + running
                + " is running; compact it once the turn has ended");

        assertThat(gateway.send("POST", "/api/v1/sessions/" + UUID.randomUUID() + "/compact", "").statusCode())
                .isEqualTo(404);
    }

    @Test
    void the_presets_are_listed() throws Exception {
        HttpResponse<String> r = gateway.send("GET", "/api/v1/presets", "");
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(Json.mapper().readTree(r.body())).extracting(p -> p.get("name").asText())
                .containsExactly("research", "code", "write", "analyze", "architect");
    }
}
