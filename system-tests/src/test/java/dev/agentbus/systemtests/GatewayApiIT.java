package dev.agentbus.systemtests;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentbus.eventbus.DeadLetters;
import dev.agentbus.events.session.EventEnvelope;
import dev.agentbus.events.session.SessionEvent.InputRejected;
import dev.agentbus.events.session.SessionEvent.TurnEnded;
import dev.agentbus.events.session.SessionEvent.WaitEnded;
import dev.agentbus.events.session.SessionEvent.WaitScheduled;
import dev.agentbus.events.session.TurnOutcome;
import dev.agentbus.events.topics.Topics;
import dev.agentbus.testkit.model.ScriptedModelServer;
import dev.agentbus.testkit.model.ScriptedReply;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static dev.agentbus.systemtests.EndToEndIT.events;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The gateway's API and the services' handling of bad input, waits, cancel, memory and limits, against one
 * standalone stack with a real broker.
 */
class GatewayApiIT {
    @TempDir
    static Path dataDir;
    static ScriptedModelServer model;
    static StandaloneStack stack;
    static GatewayClient gw;

    @BeforeAll
    static void start() {
        model = ScriptedModelServer.start();
        stack = new StandaloneStack(dataDir, model, Map.of("agentbus.agent.max-iterations", "2"));
        gw = stack.gateway;
    }

    @AfterAll
    static void stop() {
        if (stack != null) {
            stack.close();
        }
        if (model != null) {
            model.close();
        }
    }

    static void assertError(GatewayClient.Response r, int status, String error, String messagePart) {
        assertThat(r.status()).as(r.body()).isEqualTo(status);
        JsonNode body = r.json();
        assertThat(body.get("error").asText()).isEqualTo(error);
        assertThat(body.get("message").asText()).containsIgnoringCase(messagePart);
    }

    @Nested
    class BadRequests {
        @Test
        void a_request_without_the_token_gets_401() {
            var r = gw.send(HttpRequest.newBuilder(java.net.URI.create(stack.stack.gatewayUrl() + "/api/v1/sessions"))
                    .GET().build());
            assertError(r, 401, "unauthorized", "Authorization: Bearer <API key>");
            var wrong = gw.send(HttpRequest.newBuilder(java.net.URI.create(stack.stack.gatewayUrl() + "/api/v1/sessions"))
                    .header("Authorization", "Bearer nope").GET().build());
            assertError(wrong, 401, "unauthorized", "unknown or revoked API key");
        }

        @Test
        void malformed_json_gets_400_with_a_json_message() {
            String id = gw.createSession("bad json");
            assertError(gw.post("/api/v1/sessions/" + id + "/messages", "{\"text\": "), 400, "bad_request", "JSON");
        }

        @Test
        void a_missing_or_empty_text_gets_400() {
            String id = gw.createSession("empty");
            assertError(gw.post("/api/v1/sessions/" + id + "/messages", "{}"), 400, "bad_request", "text");
            assertError(gw.post("/api/v1/sessions/" + id + "/messages", "{\"text\":\"  \"}"), 400, "bad_request",
                    "text");
        }

        @Test
        void an_unknown_session_gets_404() {
            assertError(gw.post("/api/v1/sessions/no-such-session/messages", "{\"text\":\"hi\"}"), 404,
                    "not_found", "no session no-such-session");
            assertError(gw.get("/api/v1/sessions/no-such-session"), 404, "not_found", "no session");
            assertError(gw.get("/api/v1/sessions/no-such-session/events"), 404, "not_found", "no session");
        }

        @Test
        void an_oversized_body_gets_413() {
            String id = gw.createSession("big");
            String huge = "{\"text\":\"" + "x".repeat(2 * 1024 * 1024) + "\"}";
            var r = gw.post("/api/v1/sessions/" + id + "/messages", huge);
            assertThat(r.status()).isEqualTo(413);
            assertThat(r.json().get("error").asText()).isEqualTo("request_entity_too_large");
        }

        @Test
        void a_body_that_is_not_json_gets_415() {
            String id = gw.createSession("plain");
            var r = gw.send(gw.request("/api/v1/sessions/" + id + "/messages").header("Content-Type", "text/plain")
                    .POST(HttpRequest.BodyPublishers.ofString("hello")).build());
            assertThat(r.status()).isEqualTo(415);
            assertThat(r.json().get("error").asText()).isEqualTo("unsupported_media_type");
        }

        @Test
        void health_reports_kafka_reachable_without_a_token() {
            var r = gw.send(HttpRequest.newBuilder(java.net.URI.create(stack.stack.gatewayUrl() + "/health"))
                    .GET().build());
            assertThat(r.status()).isEqualTo(200);
            assertThat(r.json().get("kafka").asText()).isEqualTo("reachable");
        }
    }

    @Nested
    class Turns {
        @Test
        void a_second_message_while_a_turn_runs_gets_409_and_cancel_ends_the_turn() throws Exception {
            model.reply(ScriptedReply.text("too late").withDelay(Duration.ofSeconds(3)));
            String id = gw.createSession("cancel");
            gw.postMessage(id, "take your time");
            gw.awaitLog(id, e -> e.event() instanceof dev.agentbus.events.session.SessionEvent.ModelCallStarted,
                    Duration.ofSeconds(20));
            assertError(gw.post("/api/v1/sessions/" + id + "/messages", "{\"text\":\"and more\"}"), 409, "conflict",
                    "running");
            assertThat(gw.post("/api/v1/sessions/" + id + "/cancel", "").status()).isEqualTo(202);
            List<EventEnvelope> log = gw.awaitLog(id, e -> e.event() instanceof TurnEnded, Duration.ofSeconds(20));
            assertThat(events(log, TurnEnded.class).getFirst().outcome()).isEqualTo(TurnOutcome.CANCELLED);
            // The answer that arrives after the cancel is not recorded. Once the model server has sent it, a next
            // turn in the same session is decided after it (one session's inputs are in order), so when that turn
            // has ended the late answer has been seen, and must have been dropped.
            assertThat(model.awaitAnswered(model.requestCount(), Duration.ofSeconds(20))).isTrue();
            model.replyText("the next turn");
            gw.postMessage(id, "next");
            List<EventEnvelope> after = gw.awaitLog(id, e -> e.event() instanceof TurnEnded t
                    && t.answer() != null && t.answer().equals("the next turn"), Duration.ofSeconds(20));
            assertThat(after).filteredOn(e -> e.event()
                    instanceof dev.agentbus.events.session.SessionEvent.ModelCallCompleted)
                    .singleElement().satisfies(e -> assertThat(((dev.agentbus.events.session.SessionEvent
                            .ModelCallCompleted) e.event()).content()).isEqualTo("the next turn"));
        }

        @Test
        void the_iteration_cap_ends_the_turn_with_its_own_outcome() throws Exception {
            model.replyToolCall("ls", "{}").replyToolCall("ls", "{}");
            String id = gw.createSession("cap");
            gw.postMessage(id, "loop");
            List<EventEnvelope> log = gw.awaitLog(id, e -> e.event() instanceof TurnEnded, Duration.ofSeconds(30));
            TurnEnded end = events(log, TurnEnded.class).getFirst();
            assertThat(end.outcome()).isEqualTo(TurnOutcome.ITERATION_CAP);
            assertThat(end.message()).contains("2 model calls");
        }

        @Test
        void the_cli_exits_2_when_the_iteration_cap_ends_the_turn_and_1_for_an_unknown_session() throws Exception {
            model.replyToolCall("ls", "{}").replyToolCall("ls", "{}");
            var capped = CliProcess.run(stack.stack.gatewayUrl(), StandaloneStack.TOKEN, dataDir.resolve("cli"),
                    "run", "loop forever");
            assertThat(capped.exitCode()).as(capped.out() + capped.err()).isEqualTo(2);
            var unknown = CliProcess.run(stack.stack.gatewayUrl(), StandaloneStack.TOKEN, dataDir.resolve("cli"),
                    "show", "no-such-session");
            assertThat(unknown.exitCode()).isEqualTo(1);
            assertThat(unknown.err()).contains("no session no-such-session");
        }

        @Test
        void a_wait_answer_is_woken_by_the_scheduler_at_its_time_to_the_second() throws Exception {
            Instant until = Instant.now().plusSeconds(5).truncatedTo(java.time.temporal.ChronoUnit.SECONDS);
            model.replyText("Not yet.\nWAIT: " + until + ": check the build").replyText("Checked: all green.");
            String id = gw.createSession("wait");
            gw.postMessage(id, "check the build in a moment");
            List<EventEnvelope> log = gw.awaitLog(id, e -> e.event() instanceof TurnEnded, Duration.ofSeconds(30));
            assertThat(events(log, WaitScheduled.class).getFirst().until()).isEqualTo(until);
            EventEnvelope ended = log.stream().filter(e -> e.event() instanceof WaitEnded).findFirst().orElseThrow();
            // The timer fires at the millisecond; the rest is one Kafka round trip and a transaction, which a loaded
            // 2-core CI machine may stretch, so allow 1.5 s (a polling scheduler would be off by its interval).
            assertThat(Duration.between(until, ended.time()).toMillis()).isBetween(0L, 1500L);
            assertThat(events(log, TurnEnded.class).getFirst().answer()).isEqualTo("Checked: all green.");
            // the model was told that the time had come
            assertThat(model.lastRequest().get("messages").toString()).contains("The time you waited for has come");
        }
    }

    @Nested
    class Memory {
        @Test
        void memory_is_set_read_injected_into_the_next_model_call_and_reset() throws Exception {
            var put = gw.send(gw.request("/api/v1/memory").header("Content-Type", "application/json")
                    .PUT(HttpRequest.BodyPublishers.ofString("{\"content\":\"Prefers answers in French.\"}")).build());
            assertThat(put.status()).as(put.body()).isEqualTo(200);
            assertThat(gw.get("/api/v1/memory").json().get("content").asText()).isEqualTo("Prefers answers in French.");

            model.replyText("D'accord.");
            String id = gw.createSession("memory");
            gw.postMessage(id, "hello");
            gw.awaitLog(id, e -> e.event() instanceof TurnEnded, Duration.ofSeconds(20));
            JsonNode system = model.lastRequest().get("messages").get(0);
            assertThat(system.get("role").asText()).isEqualTo("system");
            assertThat(system.get("content").asText()).contains("Prefers answers in French.");

            var reset = gw.send(gw.request("/api/v1/memory").DELETE().build());
            assertThat(reset.status()).isEqualTo(200);
            assertThat(reset.json().get("content").asText()).isEmpty();
            assertThat(reset.json().get("version").asLong()).isGreaterThan(put.json().get("version").asLong());
        }
    }

    @Nested
    class BadRecords {
        @Test
        void an_unparseable_input_goes_to_the_dead_letter_topic_and_the_services_keep_working() throws Exception {
            try (var producer = producer()) {
                producer.send(new ProducerRecord<>(Topics.SESSION_INPUTS.name(), "garbage-session",
                        "this is not json".getBytes(StandardCharsets.UTF_8))).get();
            }
            ConsumerRecord<String, byte[]> dead = awaitDeadLetter("garbage-session", Duration.ofSeconds(20));
            assertThat(new String(dead.value(), StandardCharsets.UTF_8)).isEqualTo("this is not json");
            assertThat(new String(dead.headers().lastHeader(DeadLetters.REASON).value(), StandardCharsets.UTF_8))
                    .contains("not valid JSON");
            assertThat(new String(dead.headers().lastHeader(DeadLetters.SOURCE_TOPIC).value(), StandardCharsets.UTF_8))
                    .isEqualTo(Topics.SESSION_INPUTS.name());
            assertSessionsStillWork();
        }

        @Test
        void an_input_without_a_user_goes_to_the_dead_letter_topic() throws Exception {
            String input = "{\"type\":\"create_session.v1\",\"id\":\"i2\",\"sessionId\":\"userless-session\","
                    + "\"time\":\"2026-11-22T10:00:00Z\",\"data\":{\"title\":\"x\"}}";
            try (var producer = producer()) {
                producer.send(new ProducerRecord<>(Topics.SESSION_INPUTS.name(), "userless-session",
                        input.getBytes(StandardCharsets.UTF_8))).get();
            }
            ConsumerRecord<String, byte[]> dead = awaitDeadLetter("userless-session", Duration.ofSeconds(20));
            assertThat(new String(dead.headers().lastHeader(DeadLetters.REASON).value(), StandardCharsets.UTF_8))
                    .contains("no userId");
            assertSessionsStillWork();
        }

        @Test
        void an_unknown_event_type_on_the_log_is_skipped_and_the_services_keep_working() throws Exception {
            String future = "{\"type\":\"future_thing.happened.v9\",\"id\":\"f1\",\"sessionId\":\"future-session\","
                    + "\"seq\":1,\"time\":\"2026-11-22T10:00:00Z\",\"userId\":\"local\",\"data\":{\"x\":1}}";
            try (var producer = producer()) {
                producer.send(new ProducerRecord<>(Topics.SESSION_EVENTS.name(), "future-session",
                        future.getBytes(StandardCharsets.UTF_8))).get();
            }
            assertSessionsStillWork();
        }

        @Test
        void an_unknown_input_type_for_a_session_is_rejected_with_a_reason_in_the_log() throws Exception {
            String id = gw.createSession("unknown input");
            String input = "{\"type\":\"teleport.v1\",\"id\":\"i1\",\"sessionId\":\"" + id + "\","
                    + "\"time\":\"2026-11-22T10:00:00Z\",\"userId\":\"local\",\"data\":{}}";
            try (var producer = producer()) {
                producer.send(new ProducerRecord<>(Topics.SESSION_INPUTS.name(), id,
                        input.getBytes(StandardCharsets.UTF_8))).get();
            }
            List<EventEnvelope> log = gw.awaitLog(id, e -> e.event() instanceof InputRejected, Duration.ofSeconds(20));
            assertThat(events(log, InputRejected.class).getFirst().reason()).contains("unknown input type teleport.v1");
        }

        private void assertSessionsStillWork() throws Exception {
            model.replyText("still here");
            String id = gw.createSession("after bad record");
            gw.postMessage(id, "are you there?");
            List<EventEnvelope> log = gw.awaitLog(id, e -> e.event() instanceof TurnEnded, Duration.ofSeconds(20));
            assertThat(events(log, TurnEnded.class).getFirst().answer()).isEqualTo("still here");
        }

        private KafkaProducer<String, byte[]> producer() {
            return new KafkaProducer<>(Map.of("bootstrap.servers", stack.stack.bootstrapServers()),
                    new StringSerializer(), new ByteArraySerializer());
        }

        private ConsumerRecord<String, byte[]> awaitDeadLetter(String key, Duration timeout) {
            try (var consumer = new KafkaConsumer<>(Map.<String, Object>of("bootstrap.servers",
                    stack.stack.bootstrapServers()), new StringDeserializer(), new ByteArrayDeserializer())) {
                List<TopicPartition> parts = consumer.partitionsFor(Topics.DEAD_LETTER.name()).stream()
                        .map(p -> new TopicPartition(p.topic(), p.partition())).toList();
                consumer.assign(parts);
                consumer.seekToBeginning(parts);
                long deadline = System.nanoTime() + timeout.toNanos();
                List<ConsumerRecord<String, byte[]>> seen = new ArrayList<>();
                while (System.nanoTime() < deadline) {
                    for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                        seen.add(r);
                        if (key.equals(r.key())) {
                            return r;
                        }
                    }
                }
                throw new AssertionError("no dead letter for " + key + "; saw " + seen.size() + " records");
            }
        }
    }
}
