package dev.agentbus.gateway.steering;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentbus.eventbus.KafkaSettings;
import dev.agentbus.events.Json;
import dev.agentbus.events.input.InputEnvelope;
import dev.agentbus.events.input.SessionInput;
import dev.agentbus.events.session.SessionEvent;
import dev.agentbus.events.session.TurnOutcome;
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
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Renaming and whispering against a real broker and gateway (no orchestrator: what the routes write is read back
 * from {@code agentbus.session-inputs}, and the logs are written by hand). Bad input is a 400 or 413 JSON error, a
 * whisper to an idle session a 409, a message to a waiting turn is taken, and a rename reaches the read models.
 */
class SteeringRoutesIT {
    static final Duration WAIT = Duration.ofSeconds(60);

    @TempDir
    static Path dir;
    static TestBroker broker;
    static KafkaSettings kafka;
    static TestGateway gateway;
    static String idle;
    static String running;
    static String waiting;

    @BeforeAll
    static void start() throws Exception {
        broker = TestBroker.start(dir.resolve("kafka"));
        kafka = broker.kafka();
        gateway = new TestGateway(broker.bootstrapServers(), dir.resolve("gw"), TestPostgres.newDatabase());
        idle = UUID.randomUUID().toString();
        running = UUID.randomUUID().toString();
        waiting = UUID.randomUUID().toString();
        try (LogWriter log = new LogWriter(kafka)) {
            log.append(idle, "local", new SessionEvent.SessionCreated("idle"));
            log.append(running, "local", new SessionEvent.SessionCreated("running"));
            log.append(running, "local", new SessionEvent.UserMessagePosted("work"));
            log.append(running, "local", new SessionEvent.ModelCallStarted("r1", 1));
            log.append(waiting, "local", new SessionEvent.SessionCreated("waiting"));
            log.append(waiting, "local", new SessionEvent.UserMessagePosted("later"));
            log.append(waiting, "local", new SessionEvent.ModelCallStarted("r1", 1));
            log.append(waiting, "local", new SessionEvent.WaitScheduled("w1", Instant.now().plusSeconds(3600),
                    "later", null));
        }
        Await.until("the three sessions in the view", WAIT,
                () -> gateway.get("/api/v1/sessions/" + waiting).body().contains("WAITING")
                        && gateway.get("/api/v1/sessions/" + running).body().contains("RUNNING")
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
    void a_missing_or_blank_or_too_long_title_is_a_400_json_error() throws Exception {
        for (String body : List.of("{}", "{\"title\":\"   \"}", "{\"title\":null}")) {
            HttpResponse<String> r = send("PUT", "/api/v1/sessions/" + idle + "/title", body);
            assertThat(r.statusCode()).as(body).isEqualTo(400);
            assertThat(error(r)).contains("title is required");
        }
        HttpResponse<String> tooLong = send("PUT", "/api/v1/sessions/" + idle + "/title",
                Json.mapper().writeValueAsString(Map.of("title", "t".repeat(201))));
        assertThat(tooLong.statusCode()).isEqualTo(400);
        assertThat(error(tooLong)).contains("title is longer than 200 characters");
    }

    @Test
    void an_empty_whisper_is_400_a_too_long_one_413_and_one_to_an_idle_session_409() throws Exception {
        HttpResponse<String> empty = send("POST", "/api/v1/sessions/" + running + "/whisper", "{\"text\":\" \"}");
        assertThat(empty.statusCode()).isEqualTo(400);
        assertThat(error(empty)).contains("text is required");

        HttpResponse<String> tooLong = send("POST", "/api/v1/sessions/" + running + "/whisper",
                Json.mapper().writeValueAsString(Map.of("text", "x".repeat(4097))));
        assertThat(tooLong.statusCode()).isEqualTo(413);
        assertThat(error(tooLong)).contains("longer than 4096 characters");

        HttpResponse<String> toIdle = send("POST", "/api/v1/sessions/" + idle + "/whisper", "{\"text\":\"psst\"}");
        assertThat(toIdle.statusCode()).isEqualTo(409);
        assertThat(error(toIdle)).contains("no turn under way to whisper to; send a message instead");
    }

    @Test
    void a_missing_session_is_404_for_both_routes() throws Exception {
        String missing = "/api/v1/sessions/" + UUID.randomUUID();
        assertThat(send("PUT", missing + "/title", "{\"title\":\"x\"}").statusCode()).isEqualTo(404);
        assertThat(send("POST", missing + "/whisper", "{\"text\":\"x\"}").statusCode()).isEqualTo(404);
    }

    @Test
    void a_message_to_a_running_turn_is_409_pointing_at_whispers_and_to_a_waiting_one_202() throws Exception {
        HttpResponse<String> busy = send("POST", "/api/v1/sessions/" + running + "/messages", "{\"text\":\"more\"}");
        assertThat(busy.statusCode()).isEqualTo(409);
        assertThat(error(busy)).contains("is running").contains("whisper");

        HttpResponse<String> wake = send("POST", "/api/v1/sessions/" + waiting + "/messages",
                "{\"text\":\"wake up\"}");
        assertThat(wake.statusCode()).isEqualTo(202);
        assertThat(inputsOf(waiting, 1)).extracting(InputEnvelope::input)
                .containsExactly(new SessionInput.PostUserMessage("wake up"));
    }

    @Test
    void good_requests_become_the_inputs_the_decider_reads_answered_202_with_the_input_id() throws Exception {
        HttpResponse<String> renamed = send("PUT", "/api/v1/sessions/" + running + "/title",
                "{\"title\":\"  The big refactor  \"}");
        HttpResponse<String> whispered = send("POST", "/api/v1/sessions/" + running + "/whisper",
                "{\"text\":\"keep the public API\"}");

        assertThat(renamed.statusCode()).isEqualTo(202);
        assertThat(whispered.statusCode()).isEqualTo(202);
        String whisperId = Json.mapper().readTree(whispered.body()).get("inputId").asText();
        List<InputEnvelope> inputs = inputsOf(running, 2);
        assertThat(inputs).extracting(InputEnvelope::input).containsExactlyInAnyOrder(
                new SessionInput.RenameSession("The big refactor"),
                new SessionInput.PostWhisper("keep the public API"));
        assertThat(inputs).filteredOn(i -> i.id().equals(whisperId)).singleElement()
                .extracting(InputEnvelope::userId).isEqualTo("local");
    }

    @Test
    void a_rename_in_the_log_reaches_the_session_list_and_search() throws Exception {
        String id = UUID.randomUUID().toString();
        try (LogWriter log = new LogWriter(kafka)) {
            log.append(id, "local", new SessionEvent.SessionCreated("old name"));
            log.append(id, "local", new SessionEvent.UserMessagePosted("findme-steering"));
            log.append(id, "local", new SessionEvent.TurnEnded(TurnOutcome.COMPLETED, "ok", null));
            log.append(id, "local", new SessionEvent.SessionRenamed("Shiny new name", "local"));
        }
        Await.until("the new title in the view, the read model and search", WAIT,
                () -> gateway.get("/api/v1/sessions/" + id).body().contains("Shiny new name")
                        && gateway.get("/api/v1/read-models/sessions").body().contains("Shiny new name")
                        && gateway.get("/api/v1/search?q=findme-steering").body().contains("Shiny new name"));
        JsonNode list = Json.mapper().readTree(gateway.get("/api/v1/sessions").body());
        assertThat(list.findValuesAsText("title")).contains("Shiny new name").doesNotContain("old name");
    }

    private static String error(HttpResponse<String> r) throws Exception {
        return TestGateway.errorMessage(r);
    }

    private static HttpResponse<String> send(String method, String path, String body) throws Exception {
        return gateway.send(method, path, body);
    }

    private static List<InputEnvelope> inputsOf(String sessionId, int count) {
        return SessionInputsReader.first(broker.bootstrapServers(), sessionId, count, WAIT);
    }
}
