package dev.agentbus.gateway.inbox;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentbus.eventbus.CompactedTopicView;
import dev.agentbus.eventbus.KafkaSettings;
import dev.agentbus.events.Json;
import dev.agentbus.events.codec.EventCodec;
import dev.agentbus.events.inbox.InboxTask;
import dev.agentbus.events.session.SessionEvent;
import dev.agentbus.events.topics.Topics;
import dev.agentbus.gateway.readmodels.Await;
import dev.agentbus.gateway.readmodels.LogWriter;
import dev.agentbus.gateway.readmodels.TestBroker;
import dev.agentbus.gateway.readmodels.TestGateway;
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
 * The inbox routes against a real broker and gateway (no scheduler, no orchestrator: what they write is read back from
 * {@code agentbus.inbox}, and a start is written to the session log by hand). Bad input is a 400 JSON error.
 */
class InboxRoutesIT {
    static final Duration WAIT = Duration.ofSeconds(60);

    @TempDir
    static Path dir;
    static TestBroker broker;
    static KafkaSettings kafka;
    static TestGateway gateway;
    static CompactedTopicView<InboxTask> topic;

    @BeforeAll
    static void start() throws Exception {
        broker = TestBroker.start(dir.resolve("kafka"));
        kafka = broker.kafka();
        gateway = new TestGateway(broker.bootstrapServers(), dir.resolve("gw"), null,
                Map.of("agentbus.inbox.max-queued", "5"));
        topic = new CompactedTopicView<>(kafka, Topics.INBOX.name(), "inbox-test",
                b -> EventCodec.decodeValue(b, InboxTask.class)).start();
    }

    @AfterAll
    static void stop() {
        if (topic != null) {
            topic.close();
        }
        if (gateway != null) {
            gateway.close();
        }
        broker.close();
    }

    @Test
    void empty_text_a_past_or_far_or_malformed_time_and_a_long_title_are_400_json_errors() throws Exception {
        Map<String, String> cases = Map.of(
                "{}", "text is required",
                "{\"text\":\"  \"}", "text is required",
                "{\"text\":\"x\",\"at\":\"2020-01-01T00:00:00Z\"}", "is in the past",
                "{\"text\":\"x\",\"at\":\"2999-01-01T00:00:00Z\"}", "too far ahead",
                "{\"text\":\"x\",\"at\":\"tomorrow at nine\"}", "ISO-8601 time with a zone",
                "{\"text\":\"x\",\"at\":\"2026-12-01T09:00:00\"}", "ISO-8601 time with a zone",
                "{\"text\":\"x\",\"title\":\"" + "t".repeat(201) + "\"}", "title is longer than 200");
        for (var c : cases.entrySet()) {
            HttpResponse<String> r = gateway.send("POST", "/api/v1/inbox", c.getKey());
            assertThat(r.statusCode()).as(c.getKey()).isEqualTo(400);
            assertThat(TestGateway.errorMessage(r)).as(c.getKey()).contains(c.getValue());
        }
        HttpResponse<String> notJson = gateway.send("POST", "/api/v1/inbox", "{not json");
        assertThat(notJson.statusCode()).isEqualTo(400);
    }

    @Test
    void a_task_for_later_is_queued_on_the_topic_listed_and_cancelled() throws Exception {
        Instant at = Instant.now().plus(Duration.ofHours(2)).truncatedTo(java.time.temporal.ChronoUnit.SECONDS);
        HttpResponse<String> r = gateway.send("POST", "/api/v1/inbox",
                Json.mapper().writeValueAsString(Map.of("text", "water the plants", "at", at.toString(),
                        "title", "Plants")));

        assertThat(r.statusCode()).isEqualTo(201);
        JsonNode item = Json.mapper().readTree(r.body());
        String id = item.get("id").asText();
        assertThat(item.get("status").asText()).isEqualTo("queued");
        assertThat(item.get("at").asText()).isEqualTo(at.toString());
        assertThat(item.has("sessionId")).isFalse();
        Await.until("the task on agentbus.inbox", WAIT, () -> topic.get(id).isPresent());
        InboxTask task = topic.get(id).orElseThrow();
        assertThat(task.userId()).isEqualTo("local");
        assertThat(task.text()).isEqualTo("water the plants");
        assertThat(task.title()).isEqualTo("Plants");
        assertThat(task.at()).isEqualTo(at);
        assertThat(ids(gateway.get("/api/v1/inbox"))).contains(id);

        assertThat(gateway.send("DELETE", "/api/v1/inbox/" + id, "").statusCode()).isEqualTo(204);
        assertThat(ids(gateway.get("/api/v1/inbox"))).doesNotContain(id);
        Await.until("the tombstone on agentbus.inbox", WAIT, () -> topic.get(id).isEmpty());
        assertThat(gateway.send("DELETE", "/api/v1/inbox/" + id, "").statusCode()).as("gone").isEqualTo(404);
    }

    @Test
    void a_started_task_is_listed_with_its_session_cannot_be_cancelled_and_is_marked_started_on_the_topic()
            throws Exception {
        HttpResponse<String> r = gateway.send("POST", "/api/v1/inbox", "{\"text\":\"now please\"}");
        assertThat(r.statusCode()).isEqualTo(201);
        String id = Json.mapper().readTree(r.body()).get("id").asText();
        // What the orchestrator records when the scheduler starts the task: the session whose id is the task's.
        try (LogWriter log = new LogWriter(kafka)) {
            log.append(id, "local", new SessionEvent.SessionCreated("Inbox task"));
        }

        Await.until("the task listed as started", WAIT,
                () -> gateway.get("/api/v1/inbox").body().contains("\"sessionId\":\"" + id + "\""));
        JsonNode item = find(gateway.get("/api/v1/inbox"), id);
        assertThat(item.get("status").asText()).isEqualTo("started");
        assertThat(item.has("startedAt")).isTrue();
        HttpResponse<String> cancel = gateway.send("DELETE", "/api/v1/inbox/" + id, "");
        assertThat(cancel.statusCode()).isEqualTo(409);
        assertThat(TestGateway.errorMessage(cancel)).contains("has started already");
        Await.until("startedAt copied to agentbus.inbox, so the scheduler stops arming it", WAIT,
                () -> topic.get(id).map(t -> t.startedAt() != null).orElse(false));
    }

    @Test
    void a_user_with_too_many_waiting_tasks_gets_429() throws Exception {
        List<String> mine = new java.util.ArrayList<>();
        HttpResponse<String> r;
        String later = Instant.now().plus(Duration.ofDays(1)).toString();
        do {
            r = gateway.send("POST", "/api/v1/inbox", "{\"text\":\"later\",\"at\":\"" + later + "\"}");
            if (r.statusCode() == 201) {
                mine.add(Json.mapper().readTree(r.body()).get("id").asText());
            }
        } while (r.statusCode() == 201 && mine.size() <= 5);
        assertThat(r.statusCode()).isEqualTo(429);
        assertThat(TestGateway.errorMessage(r)).contains("agentbus.inbox.max-queued");
        for (String id : mine) {
            gateway.send("DELETE", "/api/v1/inbox/" + id, "");
        }
    }

    @Test
    void someone_elses_or_an_unknown_task_is_404() throws Exception {
        assertThat(gateway.send("DELETE", "/api/v1/inbox/" + UUID.randomUUID(), "").statusCode()).isEqualTo(404);
    }

    private static List<String> ids(HttpResponse<String> r) throws Exception {
        assertThat(r.statusCode()).isEqualTo(200);
        return Json.mapper().readTree(r.body()).findValuesAsText("id");
    }

    private static JsonNode find(HttpResponse<String> r, String id) throws Exception {
        for (JsonNode n : Json.mapper().readTree(r.body())) {
            if (n.get("id").asText().equals(id)) {
                return n;
            }
        }
        throw new AssertionError("no item " + id + " in " + r.body());
    }
}
