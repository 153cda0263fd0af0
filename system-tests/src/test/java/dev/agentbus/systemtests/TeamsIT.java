package dev.agentbus.systemtests;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentbus.events.Json;
import dev.agentbus.events.session.SessionEvent.TurnEnded;
import dev.agentbus.events.topics.Topics;
import dev.agentbus.testkit.model.ScriptedModelServer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Teams on the standalone stack, as a team would use it: the admin (the printed token) invites a person, who
 * registers, logs in, makes an API key and points their sessions at a model server of their own, whose key never
 * appears in the clear on Kafka; everyone else's sessions keep the team's server.
 */
class TeamsIT extends OnStandaloneStack {
    static final String ADA_KEY = "sk-ada-secret-0123456789";

    @Test
    void a_generated_admin_password_is_in_the_data_directory_and_logs_in() throws Exception {
        String password = Files.readString(dataDir.resolve("admin-password")).trim();
        GatewayClient.Response login = stack.gateway.send(HttpRequest.newBuilder(
                        URI.create(stack.stack.gatewayUrl() + "/api/v1/auth/login"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(Json.mapper().writeValueAsString(
                        Map.of("username", "admin", "password", password)))).build());
        assertThat(login.status()).isEqualTo(200);
        assertThat(login.json().get("userId").asText()).as("the token's user").isEqualTo("local");
    }

    @Test
    void a_person_with_their_own_model_server_gets_it_for_their_sessions_and_the_key_stays_sealed()
            throws Exception {
        GatewayClient ada = new GatewayClient(stack.stack.gatewayUrl(), newUserKey("ada"));
        try (ScriptedModelServer own = ScriptedModelServer.start("ada-model")) {
            own.replyText("from ada's own server");
            GatewayClient.Response set = ada.send(ada.request("/api/v1/me/model")
                    .header("Content-Type", "application/json")
                    .PUT(HttpRequest.BodyPublishers.ofString(Json.mapper().writeValueAsString(Map.of(
                            "baseUrl", own.baseUrl(), "model", "ada-model", "apiKey", ADA_KEY)))).build());
            assertThat(set.status()).as(set.body()).isEqualTo(200);
            assertThat(set.body()).doesNotContain(ADA_KEY);
            assertThat(set.json().get("hasApiKey").asBoolean()).isTrue();
            assertThat(ada.get("/api/v1/me/model").json().get("baseUrl").asText()).isEqualTo(own.baseUrl());
            int teamCalls = model.requestCount();

            String id = ada.createSession("own server");
            ada.postMessage(id, "hello");
            TurnEnded end = (TurnEnded) ada.awaitLog(id, e -> e.event() instanceof TurnEnded, Duration.ofSeconds(60))
                    .getLast().event();

            assertThat(end.answer()).isEqualTo("from ada's own server");
            assertThat(own.authorizations()).containsExactly("Bearer " + ADA_KEY);
            assertThat(own.lastRequest().get("model").asText()).isEqualTo("ada-model");
            assertThat(model.requestCount()).as("the team's server was not asked").isEqualTo(teamCalls);
            assertThat(topicBytes(Topics.USER_MODELS.name())).as("sealed on Kafka").isNotEmpty()
                    .noneMatch(v -> v.contains(ADA_KEY));

            model.replyText("from the team's server");
            String mine = stack.gateway.createSession("admin's");
            stack.gateway.postMessage(mine, "hello");
            TurnEnded adminsEnd = (TurnEnded) stack.gateway.awaitLog(mine, e -> e.event() instanceof TurnEnded,
                    Duration.ofSeconds(60)).getLast().event();
            assertThat(adminsEnd.answer()).as("others keep the team's server").isEqualTo("from the team's server");

            GatewayClient.Response removed = ada.send(ada.request("/api/v1/me/model").DELETE().build());
            assertThat(removed.json().get("own").asBoolean()).isFalse();
            model.replyText("team again");
            ada.postMessage(id, "and now?");
            assertThat(ada.awaitLog(id, e -> e.event() instanceof TurnEnded t && "team again".equals(t.answer()),
                    Duration.ofSeconds(60))).isNotEmpty();
            assertThat(own.requestCount()).isEqualTo(1);
        }
    }

    @Test
    void a_model_server_that_is_not_a_plain_http_url_is_refused() throws Exception {
        GatewayClient bob = new GatewayClient(stack.stack.gatewayUrl(), newUserKey("bob"));
        for (String bad : List.of("file:///etc/passwd", "http://user:pw@host/v1", "not a url", "")) {
            GatewayClient.Response r = bob.send(bob.request("/api/v1/me/model")
                    .header("Content-Type", "application/json")
                    .PUT(HttpRequest.BodyPublishers.ofString(Json.mapper().writeValueAsString(
                            Map.of("baseUrl", bad)))).build());
            assertThat(r.status()).as(bad).isEqualTo(400);
            assertThat(r.json().get("message").asText()).contains("baseUrl");
        }
        assertThat(bob.get("/api/v1/me/model").json().get("own").asBoolean()).isFalse();
    }

    @Test
    void the_cli_with_a_persons_api_key_sees_that_persons_sessions_only() throws Exception {
        String key = newUserKey("carol");
        String carols = new GatewayClient(stack.stack.gatewayUrl(), key).createSession("carol's notes");
        String admins = stack.gateway.createSession("the admin's plans");

        var listed = CliProcess.run(stack.stack.gatewayUrl(), key, dataDir.resolve("cli-carol"), "sessions");

        assertThat(listed.exitCode()).as(listed.out() + listed.err()).isZero();
        assertThat(listed.out()).contains(carols.substring(0, 8)).contains("carol's notes")
                .doesNotContain(admins.substring(0, 8)).doesNotContain("the admin's plans");
        var wrong = CliProcess.run(stack.stack.gatewayUrl(), "ab_not-a-key", dataDir.resolve("cli-carol"),
                "sessions");
        assertThat(wrong.exitCode()).isNotZero();
        assertThat(wrong.err()).contains("refused the token");
    }

    /** An invite from the admin, a registration, a login and an API key made with the login's CSRF token. */
    static String newUserKey(String username) throws Exception {
        return newUserKey(stack, username);
    }

    /** The same on a stack of the caller's (one started with settings of its own). */
    static String newUserKey(StandaloneStack stack, String username) throws Exception {
        String base = stack.stack.gatewayUrl();
        String code = stack.gateway.post("/api/v1/admin/invites", "{}").json().get("code").asText();
        String password = username + "-password-123";
        GatewayClient.Response registered = stack.gateway.send(HttpRequest.newBuilder(
                        URI.create(base + "/api/v1/auth/register")).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(Json.mapper().writeValueAsString(
                        Map.of("invite", code, "username", username, "password", password)))).build());
        assertThat(registered.status()).as(registered.body()).isEqualTo(201);
        GatewayClient.Response login = stack.gateway.send(HttpRequest.newBuilder(
                        URI.create(base + "/api/v1/auth/login")).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(Json.mapper().writeValueAsString(
                        Map.of("username", username, "password", password)))).build());
        String cookie = login.headers().entrySet().stream().filter(e -> e.getKey().equalsIgnoreCase("set-cookie"))
                .flatMap(e -> e.getValue().stream()).filter(v -> v.startsWith("agentbus_login=")).findFirst()
                .orElseThrow().split(";")[0];
        JsonNode key = stack.gateway.send(HttpRequest.newBuilder(URI.create(base + "/api/v1/me/api-keys"))
                .header("Content-Type", "application/json").header("Cookie", cookie)
                .header("X-CSRF-Token", login.json().get("csrfToken").asText())
                .POST(HttpRequest.BodyPublishers.ofString(Json.mapper().writeValueAsString(
                        Map.of("name", "tests", "currentPassword", password)))).build()).json();
        return key.get("key").asText();
    }

    static List<String> topicBytes(String topic) {
        return topicBytesOn(stack, topic);
    }

    /** Every value of the topic on the caller's stack, as text. */
    static List<String> topicBytesOn(StandaloneStack stack, String topic) {
        Map<String, Object> config = Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, stack.stack.bootstrapServers(),
                ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class,
                ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        List<String> values = new ArrayList<>();
        try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(config)) {
            List<TopicPartition> partitions = consumer.partitionsFor(topic).stream()
                    .map(p -> new TopicPartition(topic, p.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
            long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
            while (partitions.stream().anyMatch(p -> consumer.position(p) < end.get(p))
                    && System.nanoTime() < deadline) {
                for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                    if (r.value() != null) {
                        values.add(new String(r.value(), StandardCharsets.UTF_8));
                    }
                }
            }
        }
        return values;
    }
}
