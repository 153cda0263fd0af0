package dev.agentbus.gateway.readmodels.searching;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentbus.events.Json;
import dev.agentbus.events.session.SessionEvent;
import dev.agentbus.events.session.TokenUsage;
import dev.agentbus.gateway.readmodels.Await;
import dev.agentbus.gateway.readmodels.LogWriter;
import dev.agentbus.gateway.readmodels.TestBroker;
import dev.agentbus.gateway.readmodels.TestGateway;
import dev.agentbus.gateway.readmodels.TestPostgres;
import dev.agentbus.testkit.model.ScriptedModelServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.http.HttpResponse;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Semantic and hybrid search end to end: events on the real broker (written as the orchestrator writes them), the
 * gateway's embedder asking the scripted model server's {@code /v1/embeddings} (the one model double), vectors in a
 * real PostgreSQL, and {@code GET /api/v1/search} answering over HTTP. Another user's messages share words with the
 * caller's and must never come back; a deleted session's must go; reading the log again must embed nothing twice.
 */
class SemanticSearchIT {
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final String ME = "local";
    private static final String MODEL = "hashed-test-embedder";

    @TempDir
    static Path dir;
    static TestBroker broker;
    static ScriptedModelServer models;
    static TestGateway gateway;
    static String jdbc;
    static LogWriter log;
    static String deploys;
    static String cooking;
    static String theirs;
    static int messages;

    @BeforeAll
    static void start() throws Exception {
        broker = TestBroker.start(dir.resolve("kafka"));
        models = ScriptedModelServer.start();
        log = new LogWriter(broker.kafka());
        deploys = UUID.randomUUID().toString();
        cooking = UUID.randomUUID().toString();
        theirs = UUID.randomUUID().toString();
        log.append(deploys, ME, new SessionEvent.SessionCreated("release night"));
        log.append(deploys, ME, new SessionEvent.UserMessagePosted(
                "The kubernetes deployment of the billing service failed twice tonight"));
        log.append(deploys, ME, answer("Roll back the deployment, then read the pod logs of the billing service."));
        log.append(cooking, ME, new SessionEvent.SessionCreated("dinner"));
        log.append(cooking, ME, new SessionEvent.UserMessagePosted("A recipe for risotto with mushrooms, please"));
        log.append(cooking, ME, answer("Toast the rice, add warm stock slowly, stir in the mushrooms at the end."));
        log.append(theirs, "mallory", new SessionEvent.SessionCreated("mallory's kubernetes"));
        log.append(theirs, "mallory", new SessionEvent.UserMessagePosted(
                "My kubernetes deployments keep failing, secret cluster notes inside"));
        messages = 5;
        jdbc = TestPostgres.newDatabase();
        gateway = new TestGateway(broker.bootstrapServers(), dir, jdbc, Map.of(
                "llm.url", models.baseUrl(), "agentbus.search.embedding-model", MODEL,
                "agentbus.search.embedding-batch", "2"));
        Await.until("every message is embedded", WAIT, () -> vectors() == messages);
        Await.until("the read models caught up", WAIT, () -> Json.mapper().readTree(
                gateway.get("/api/v1/admin/rebuild-projections").body()).path("state").asText().equals("caught_up"));
    }

    @AfterAll
    static void stop() {
        if (gateway != null) {
            gateway.close();
        }
        if (log != null) {
            log.close();
        }
        models.close();
        broker.close();
    }

    private static SessionEvent answer(String text) {
        return new SessionEvent.ModelCallCompleted("r-" + UUID.randomUUID(), "m", text, null, List.of(),
                new TokenUsage(10, 10, 20), "stop");
    }

    @Test
    void semantic_search_finds_related_words_that_full_text_search_misses() throws Exception {
        // Full-text search wants every word; "rollout" and "problems" are in no message.
        String q = "kubernetes rollout problems";
        assertThat(results(search(q, "text"))).isEmpty();

        JsonNode semantic = search(q, "semantic");

        assertThat(semantic.get("mode").asText()).isEqualTo("semantic");
        JsonNode first = semantic.get("results").get(0);
        assertThat(first.get("sessionId").asText()).isEqualTo(deploys);
        assertThat(first.get("seq").asLong()).isEqualTo(2);
        assertThat(first.get("title").asText()).isEqualTo("release night");
        assertThat(first.get("snippet").asText()).contains("kubernetes deployment");
        assertThat(first.get("rank").asDouble()).isBetween(0.0, 1.0);
    }

    @Test
    void semantic_search_ranks_the_related_session_above_the_unrelated_one() throws Exception {
        List<String> sessions = new ArrayList<>();
        search("cook mushroom rice", "semantic").get("results").forEach(h -> sessions.add(h.get("sessionId").asText()));

        assertThat(sessions).isNotEmpty();
        assertThat(sessions.getFirst()).isEqualTo(cooking);
        assertThat(sessions).containsOnly(cooking, deploys);
    }

    @Test
    void hybrid_search_puts_a_message_found_both_ways_first_and_keeps_the_marked_snippet() throws Exception {
        JsonNode hybrid = search("billing service", "hybrid");

        assertThat(hybrid.get("mode").asText()).isEqualTo("hybrid");
        JsonNode results = hybrid.get("results");
        assertThat(results.get(0).get("sessionId").asText()).isEqualTo(deploys);
        assertThat(results.get(0).get("snippet").asText()).contains("**billing**");
        assertThat(results.get(1).get("sessionId").asText()).isEqualTo(deploys);
        // Both lists gave it a rank: its fused score is above what one list alone can give (1/61).
        assertThat(results.get(0).get("rank").asDouble()).isGreaterThan(1.0 / 61);
    }

    @Test
    void without_a_mode_search_is_hybrid_when_an_embedding_model_is_set() throws Exception {
        assertThat(Json.mapper().readTree(gateway.get("/api/v1/search?q=risotto").body()).get("mode").asText())
                .isEqualTo("hybrid");
    }

    @Test
    void no_mode_returns_another_users_messages() throws Exception {
        for (String mode : List.of("text", "semantic", "hybrid")) {
            JsonNode found = results(search("kubernetes deployments failing secret cluster notes", mode));
            found.forEach(h -> assertThat(h.get("sessionId").asText()).as(mode).isNotEqualTo(theirs));
            assertThat(found.toString()).as(mode).doesNotContain("secret cluster");
        }
    }

    @Test
    void an_unknown_mode_is_a_bad_request_with_a_json_message() throws Exception {
        HttpResponse<String> r = gateway.get("/api/v1/search?q=kubernetes&mode=fuzzy");

        assertThat(r.statusCode()).isEqualTo(400);
        assertThat(TestGateway.errorMessage(r)).isEqualTo("mode must be text, semantic or hybrid, not 'fuzzy'");
    }

    @Test
    void a_deleted_session_is_found_by_no_mode_and_its_vectors_are_removed() throws Exception {
        String doomed = UUID.randomUUID().toString();
        log.append(doomed, ME, new SessionEvent.SessionCreated("to be deleted"));
        log.append(doomed, ME, new SessionEvent.UserMessagePosted("zanzibar archipelago ferry timetable"));
        Await.until("the new message is embedded", WAIT, () -> vectorsOf(doomed) == 1);
        Await.until("it is found by meaning", WAIT, () -> results(search("zanzibar ferries", "semantic"))
                .toString().contains(doomed));

        log.append(doomed, ME, new SessionEvent.SessionDeleted(ME));

        Await.until("its vectors are removed", WAIT, () -> vectorsOf(doomed) == 0);
        Await.until("no mode finds it", WAIT, () -> {
            for (String mode : List.of("text", "semantic", "hybrid")) {
                if (results(search("zanzibar archipelago ferry", mode)).toString().contains(doomed)) {
                    return false;
                }
            }
            return true;
        });
    }

    @Test
    void reading_the_log_again_from_the_start_embeds_nothing_twice() throws Exception {
        String later = UUID.randomUUID().toString();
        int before = models.embeddedTextCount();
        try (Connection db = DriverManager.getConnection(jdbc); Statement s = db.createStatement()) {
            s.execute("UPDATE gateway.embedding_offsets SET next_offset = 0");
        }
        // A message written after the rewind: once it has a vector, the embedder has read the whole log again.
        log.append(later, ME, new SessionEvent.SessionCreated("later"));
        log.append(later, ME, new SessionEvent.UserMessagePosted("one more message after the rewind"));

        Await.until("the log is read again up to the new message", WAIT, () -> vectorsOf(later) == 1);

        assertThat(models.embeddedTextCount() - before).isEqualTo(1);
    }

    private static JsonNode search(String q, String mode) throws Exception {
        HttpResponse<String> r = gateway.get("/api/v1/search?q=" + URLEncoder.encode(q, StandardCharsets.UTF_8)
                + "&mode=" + mode);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        return Json.mapper().readTree(r.body());
    }

    private static JsonNode results(JsonNode body) {
        return body.get("results");
    }

    private static int vectors() throws Exception {
        return count("SELECT count(*) FROM gateway.message_embeddings WHERE model = '" + MODEL + "'");
    }

    private static int vectorsOf(String session) throws Exception {
        return count("SELECT count(*) FROM gateway.message_embeddings WHERE session_id = '" + session + "'");
    }

    private static int count(String sql) throws Exception {
        try (Connection db = DriverManager.getConnection(jdbc); Statement s = db.createStatement();
             ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getInt(1);
        }
    }
}
