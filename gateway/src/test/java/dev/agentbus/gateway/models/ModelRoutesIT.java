package dev.agentbus.gateway.models;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentbus.eventbus.KafkaSettings;
import dev.agentbus.events.Json;
import dev.agentbus.events.input.InputEnvelope;
import dev.agentbus.events.input.SessionInput;
import dev.agentbus.events.models.Sampling;
import dev.agentbus.events.session.SessionEvent;
import dev.agentbus.gateway.readmodels.Await;
import dev.agentbus.gateway.readmodels.LogWriter;
import dev.agentbus.gateway.readmodels.SessionInputsReader;
import dev.agentbus.gateway.readmodels.TestBroker;
import dev.agentbus.gateway.readmodels.TestGateway;
import dev.agentbus.gateway.readmodels.TestPostgres;
import dev.agentbus.testkit.model.ScriptedModelServer;
import dev.agentbus.testkit.model.WindowStyle;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.ServerSocket;
import java.net.Socket;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The model routes against a real broker and gateway (no orchestrator: what they write is read back from
 * {@code agentbus.session-inputs}): a session's own model and sampling, the user's sampling, and the model list, with
 * bad input a 400 JSON error and a model server that does not answer a 502 or 504.
 */
class ModelRoutesIT {
    static final Duration WAIT = Duration.ofSeconds(60);

    @TempDir
    static Path dir;
    static TestBroker broker;
    static ScriptedModelServer team;
    static TestGateway gateway;
    static String running;

    @BeforeAll
    static void start() throws Exception {
        broker = TestBroker.start(dir.resolve("kafka"));
        KafkaSettings kafka = broker.kafka();
        team = ScriptedModelServer.start("team-model").tellContextWindow(WindowStyle.VLLM, 8192);
        // One second: listing models from a server that never answers ends in a 504 quickly.
        gateway = new TestGateway(broker.bootstrapServers(), dir.resolve("gw"), TestPostgres.newDatabase(),
                Map.of("llm.url", team.baseUrl(), "llm.timeout-seconds", "1", "agentbus.models.vision", "team-*",
                        // the scripted servers that stand for a person's own are on loopback: the operator opens it
                        "agentbus.outgoing.allow", "127.0.0.1"));
        running = UUID.randomUUID().toString();
        try (LogWriter log = new LogWriter(kafka)) {
            log.append(running, "local", new SessionEvent.SessionCreated("running"));
            log.append(running, "local", new SessionEvent.UserMessagePosted("work"));
            log.append(running, "local", new SessionEvent.ModelCallStarted("r1", 1));
        }
        Await.until("the session in the view", WAIT,
                () -> gateway.get("/api/v1/sessions/" + running).body().contains("RUNNING"));
    }

    @AfterAll
    static void stop() {
        if (gateway != null) {
            gateway.close();
        }
        if (team != null) {
            team.close();
        }
        broker.close();
    }

    @Test
    void a_session_created_with_sampling_out_of_bounds_or_a_too_long_model_name_is_400() throws Exception {
        HttpResponse<String> hot = gateway.send("POST", "/api/v1/sessions",
                "{\"model\":\"m\",\"sampling\":{\"temperature\":3}}");
        assertThat(hot.statusCode()).isEqualTo(400);
        assertThat(TestGateway.errorMessage(hot)).isEqualTo("temperature must be from 0 to 2, not 3.0");

        HttpResponse<String> longName = gateway.send("POST", "/api/v1/sessions",
                Json.mapper().writeValueAsString(Map.of("model", "m".repeat(201))));
        assertThat(longName.statusCode()).isEqualTo(400);
        assertThat(TestGateway.errorMessage(longName)).isEqualTo("model must be at most 200 characters");
    }

    @Test
    void changing_a_sessions_model_checks_the_sampling_and_is_taken_while_a_turn_runs() throws Exception {
        HttpResponse<String> zeroTopP = gateway.send("PUT", "/api/v1/sessions/" + running + "/model",
                "{\"sampling\":{\"topP\":0}}");
        assertThat(zeroTopP.statusCode()).isEqualTo(400);
        assertThat(TestGateway.errorMessage(zeroTopP)).isEqualTo("topP must be more than 0 and at most 1, not 0.0");
        HttpResponse<String> noTokens = gateway.send("PUT", "/api/v1/sessions/" + running + "/model",
                "{\"sampling\":{\"maxTokens\":0}}");
        assertThat(noTokens.statusCode()).isEqualTo(400);
        assertThat(TestGateway.errorMessage(noTokens)).isEqualTo("maxTokens must be from 1 to 1000000, not 0");
        assertThat(gateway.send("PUT", "/api/v1/sessions/" + UUID.randomUUID() + "/model", "{\"model\":\"m\"}")
                .statusCode()).isEqualTo(404);

        HttpResponse<String> ok = gateway.send("PUT", "/api/v1/sessions/" + running + "/model",
                "{\"model\":\" fast-model \",\"sampling\":{\"temperature\":1.0,\"maxTokens\":500}}");
        assertThat(ok.statusCode()).as(ok.body()).isEqualTo(202);

        List<InputEnvelope> inputs = SessionInputsReader.first(broker.bootstrapServers(), running, 1, WAIT);
        assertThat(inputs.getFirst().input())
                .isEqualTo(new SessionInput.SetSessionModel("fast-model", new Sampling(1.0, null, 500)));
    }

    @Test
    void the_users_own_sampling_is_checked_kept_and_shown() throws Exception {
        HttpResponse<String> cold = gateway.send("PUT", "/api/v1/me/model",
                Json.mapper().writeValueAsString(Map.of("baseUrl", team.baseUrl(), "temperature", -1)));
        assertThat(cold.statusCode()).isEqualTo(400);
        assertThat(TestGateway.errorMessage(cold)).isEqualTo("temperature must be from 0 to 2, not -1.0");

        HttpResponse<String> set = gateway.send("PUT", "/api/v1/me/model", Json.mapper().writeValueAsString(
                Map.of("baseUrl", team.baseUrl(), "model", "team-model", "temperature", 0.6, "topP", 0.9,
                        "maxTokens", 2048)));
        try {
            assertThat(set.statusCode()).as(set.body()).isEqualTo(200);
            JsonNode shown = Json.mapper().readTree(gateway.get("/api/v1/me/model").body());
            assertThat(shown.get("temperature").asDouble()).isEqualTo(0.6);
            assertThat(shown.get("topP").asDouble()).isEqualTo(0.9);
            assertThat(shown.get("maxTokens").asInt()).isEqualTo(2048);

            HttpResponse<String> listed = gateway.get("/api/v1/models");
            assertThat(listed.statusCode()).as(listed.body()).isEqualTo(200);
            assertThat(Json.mapper().readTree(listed.body()).get("server").asText()).isEqualTo("own");
        } finally {
            gateway.send("DELETE", "/api/v1/me/model", "");
        }
    }

    @Test
    void without_a_server_of_their_own_the_list_is_the_team_servers_without_its_address() throws Exception {
        HttpResponse<String> listed = gateway.get("/api/v1/models");
        assertThat(listed.statusCode()).as(listed.body()).isEqualTo(200);
        JsonNode list = Json.mapper().readTree(listed.body());
        assertThat(list.get("server").asText()).isEqualTo("team");
        assertThat(list.get("models").get(0).get("id").asText()).isEqualTo("team-model");
        assertThat(list.get("models").get(0).get("contextWindow").asLong()).isEqualTo(8192);
        assertThat(listed.body()).as("the team's address is not shown").doesNotContain(team.baseUrl());
        assertThat(list.get("models").get(0).get("vision").asBoolean()).as("agentbus.models.vision names it").isTrue();
        assertThat(list.get("models").get(0).get("capabilitiesFrom").asText()).isEqualTo("agentbus.models");
        assertThat(list.get("models").get(0).has("tools")).as("nobody says").isFalse();
    }

    @Test
    void the_list_shows_what_lm_studio_and_ollama_say_each_model_can_do() throws Exception {
        try (ScriptedModelServer lmStudio = ScriptedModelServer.start("qwen2.5-vl-7b")
                .tellCapabilities(WindowStyle.LM_STUDIO, true, true).tellContextWindow(WindowStyle.LM_STUDIO, 16384);
             ScriptedModelServer ollama = ScriptedModelServer.start("deepseek-r1:8b")
                     .tellCapabilities(WindowStyle.OLLAMA, false, false)) {
            for (ScriptedModelServer own : List.of(lmStudio, ollama)) {
                HttpResponse<String> set = gateway.send("PUT", "/api/v1/me/model",
                        Json.mapper().writeValueAsString(Map.of("baseUrl", own.baseUrl())));
                assertThat(set.statusCode()).as(set.body()).isEqualTo(200);
                try {
                    HttpResponse<String> listed = gateway.get("/api/v1/models");
                    assertThat(listed.statusCode()).as(listed.body()).isEqualTo(200);
                    JsonNode model = Json.mapper().readTree(listed.body()).get("models").get(0);
                    if (own == lmStudio) {
                        assertThat(model.get("vision").asBoolean()).isTrue();
                        assertThat(model.get("tools").asBoolean()).isTrue();
                        assertThat(model.get("contextWindow").asLong()).isEqualTo(16384);
                        assertThat(model.get("capabilitiesFrom").asText()).isEqualTo("LM Studio /api/v0/models");
                    } else {
                        assertThat(model.get("vision").asBoolean()).isFalse();
                        assertThat(model.get("tools").asBoolean()).isFalse();
                        assertThat(model.get("capabilitiesFrom").asText()).isEqualTo("Ollama /api/show");
                    }
                } finally {
                    gateway.send("DELETE", "/api/v1/me/model", "");
                }
            }
        }
    }

    @Test
    void an_own_server_that_refuses_is_502_and_one_that_never_answers_504() throws Exception {
        int closedPort;
        try (ServerSocket s = new ServerSocket(0)) {
            closedPort = s.getLocalPort();
        }
        List<Socket> held = new java.util.concurrent.CopyOnWriteArrayList<>();
        try (ServerSocket silent = new ServerSocket(0)) {
            Thread.ofVirtual().start(() -> {
                try {
                    while (true) {
                        held.add(silent.accept()); // accepted, never answered
                    }
                } catch (Exception ignored) {
                    // closed at the end of the test
                }
            });
            assertThat(gateway.send("PUT", "/api/v1/me/model", "{\"baseUrl\":\"http://127.0.0.1:" + closedPort
                    + "/v1\"}").statusCode()).isEqualTo(200);
            HttpResponse<String> refused = gateway.get("/api/v1/models");
            assertThat(refused.statusCode()).isEqualTo(502);
            assertThat(TestGateway.errorMessage(refused)).startsWith("your model server at http://127.0.0.1:"
                    + closedPort + "/v1 did not answer GET /models");

            assertThat(gateway.send("PUT", "/api/v1/me/model", "{\"baseUrl\":\"http://127.0.0.1:"
                    + silent.getLocalPort() + "/v1\"}").statusCode()).isEqualTo(200);
            HttpResponse<String> silentAnswer = gateway.get("/api/v1/models");
            assertThat(silentAnswer.statusCode()).isEqualTo(504);
            assertThat(TestGateway.errorMessage(silentAnswer)).isEqualTo("your model server at http://127.0.0.1:"
                    + silent.getLocalPort() + "/v1 did not list its models within 1 s");
        } finally {
            gateway.send("DELETE", "/api/v1/me/model", "");
            for (Socket s : held) {
                s.close();
            }
        }
    }
}
