package dev.agentbus.gateway.readmodels;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentbus.eventbus.KafkaSettings;
import dev.agentbus.events.Json;
import dev.agentbus.events.session.SessionEvent;
import dev.agentbus.events.session.TokenUsage;
import dev.agentbus.events.session.ToolCallSpec;
import dev.agentbus.events.session.TurnOutcome;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The read-model endpoints through a real gateway (HTTP, bearer token, Micronaut), a real broker and a real
 * PostgreSQL. The log holds sessions of the gateway's user ({@code local}) and of someone else ({@code mallory}),
 * so every endpoint is also checked to show the caller's own data only.
 */
class ReadModelEndpointsIT {
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final String ME = "local";

    @TempDir
    static Path dir;
    static TestBroker broker;
    static TestGateway gateway;
    static String mine;
    static String mineToo;
    static String theirs;

    @BeforeAll
    static void start() throws Exception {
        broker = TestBroker.start(dir.resolve("kafka"));
        KafkaSettings kafka = broker.kafka();
        mine = UUID.randomUUID().toString();
        mineToo = UUID.randomUUID().toString();
        theirs = UUID.randomUUID().toString();
        try (LogWriter log = new LogWriter(kafka)) {
            Instant day1 = Instant.parse("2026-11-20T10:00:00Z");
            Instant day2 = Instant.parse("2026-11-21T23:59:00Z");
            log.appendAt(mine, ME, new SessionEvent.SessionCreated("penguin report"), day1);
            log.appendAt(mine, ME, new SessionEvent.UserMessagePosted("Count the penguins in colonies.csv"), day1);
            log.appendAt(mine, ME, new SessionEvent.ModelCallCompleted("r1", "qwen-7b", null, null, List.of(
                    new ToolCallSpec("c1", "shell", "{\"command\":\"wc -l colonies.csv\"}"),
                    new ToolCallSpec("c2", "read", "{\"path\":\".env\",\"token\":\"ghp_abcdefghijklmnopqrstuvwxyz0123456789\"}")),
                    new TokenUsage(1000, 50, 1050), "tool_calls"), day1);
            log.appendAt(mine, ME, new SessionEvent.ToolCallRequested("c1", "shell",
                    "{\"command\":\"wc -l colonies.csv\"}"), day1);
            log.appendAt(mine, ME, new SessionEvent.ToolCallRequested("c2", "read",
                    "{\"path\":\".env\",\"token\":\"ghp_abcdefghijklmnopqrstuvwxyz0123456789\"}"), day1);
            log.appendAt(mine, ME, new SessionEvent.ToolCallCompleted("c1", true, "42 colonies.csv", null, null,
                    false, 15, false), day1);
            log.appendAt(mine, ME, new SessionEvent.ToolCallCompleted("c2", false, null, "no such file", null,
                    false, 2, false), day1);
            log.appendAt(mine, ME, new SessionEvent.ModelCallCompleted("r2", "qwen-7b",
                    "There are 42 penguin colonies in the file.", null, List.of(), new TokenUsage(1200, 30, 1230),
                    "stop"), day2);
            log.appendAt(mine, ME, new SessionEvent.TurnEnded(TurnOutcome.COMPLETED, "42", null), day2);

            Instant earlierOnDay2 = day2.minusSeconds(3600);
            log.appendAt(mineToo, ME, new SessionEvent.SessionCreated("groceries"), earlierOnDay2);
            log.appendAt(mineToo, ME, new SessionEvent.UserMessagePosted("buy milk"), earlierOnDay2);
            log.appendAt(mineToo, ME, new SessionEvent.ModelCallCompleted("r3", "llama-3", "Noted: milk.", null,
                    List.of(), new TokenUsage(10, 5, 15), "stop"), earlierOnDay2);

            log.appendAt(theirs, "mallory", new SessionEvent.SessionCreated("secret penguins"), day1);
            log.appendAt(theirs, "mallory", new SessionEvent.UserMessagePosted("penguins are my secret"), day1);
            log.appendAt(theirs, "mallory", new SessionEvent.ModelCallCompleted("r9", "qwen-7b", null, null,
                    List.of(new ToolCallSpec("m1", "shell", "{\"command\":\"cat penguins\"}")),
                    new TokenUsage(999, 999, 1998), "tool_calls"), day1);
        }
        gateway = new TestGateway(broker.bootstrapServers(), dir, TestPostgres.newDatabase());
        Await.until("the read models caught up", WAIT, () ->
                json(gateway.get("/api/v1/admin/rebuild-projections")).path("state").asText().equals("caught_up"));
    }

    @AfterAll
    static void stop() {
        if (gateway != null) {
            gateway.close();
        }
        broker.close();
    }

    @Test
    void search_finds_the_callers_messages_with_a_marked_snippet_and_nobody_elses() throws Exception {
        HttpResponse<String> r = gateway.get("/api/v1/search?q=penguin");

        assertThat(r.statusCode()).isEqualTo(200);
        JsonNode results = json(r).get("results");
        assertThat(results).hasSize(2);
        for (JsonNode hit : results) {
            assertThat(hit.get("sessionId").asText()).isEqualTo(mine);
            assertThat(hit.get("title").asText()).isEqualTo("penguin report");
            assertThat(hit.get("snippet").asText()).containsIgnoringCase("**penguin");
        }
        assertThat(results.findValuesAsText("role")).containsExactlyInAnyOrder("user", "assistant");
        assertThat(results.findValuesAsText("seq")).containsExactlyInAnyOrder("2", "8");
    }

    @Test
    void search_understands_phrases_and_exclusions() throws Exception {
        assertThat(json(gateway.get("/api/v1/search?q=%22penguin+colonies%22")).get("results")).hasSize(1);
        assertThat(json(gateway.get("/api/v1/search?q=penguins+-file")).get("results")).hasSize(1);
        assertThat(json(gateway.get("/api/v1/search?q=secret")).get("results")).isEmpty();
    }

    @Test
    void without_an_embedding_model_search_is_by_words_and_a_mode_by_meaning_is_a_bad_request() throws Exception {
        assertThat(json(gateway.get("/api/v1/search?q=penguin")).get("mode").asText()).isEqualTo("text");

        for (String mode : List.of("semantic", "hybrid")) {
            HttpResponse<String> r = gateway.get("/api/v1/search?q=penguin&mode=" + mode);

            assertThat(r.statusCode()).isEqualTo(400);
            assertThat(TestGateway.errorMessage(r)).isEqualTo("mode=" + mode + " needs an embedding model, and "
                    + "this installation has none (agentbus.search.embedding-model); mode=text searches by words");
        }
    }

    @Test
    void search_without_words_is_a_bad_request() throws Exception {
        HttpResponse<String> r = gateway.get("/api/v1/search?q=+");

        assertThat(r.statusCode()).isEqualTo(400);
        assertThat(json(r).get("error").asText()).isEqualTo("bad_request");
        assertThat(json(r).get("message").asText()).contains("q is required");
    }

    @Test
    void token_analytics_add_up_by_utc_day_and_model_for_the_caller_only() throws Exception {
        JsonNode body = json(gateway.get("/api/v1/analytics/tokens?from=2026-11-01&to=2026-11-30"));

        assertThat(body.get("days")).hasSize(3);
        JsonNode first = body.get("days").get(0);
        assertThat(first.get("day").asText()).isEqualTo("2026-11-20");
        assertThat(first.get("model").asText()).isEqualTo("qwen-7b");
        assertThat(first.get("totalTokens").asLong()).isEqualTo(1050);
        assertThat(body.get("total").get("totalTokens").asLong()).isEqualTo(1050 + 1230 + 15);
        assertThat(body.get("total").get("modelCalls").asLong()).isEqualTo(3);
        assertThat(body.get("models").findValuesAsText("model")).containsExactly("llama-3", "qwen-7b");

        JsonNode oneDay = json(gateway.get("/api/v1/analytics/tokens?from=2026-11-21&to=2026-11-21"));
        assertThat(oneDay.get("total").get("totalTokens").asLong()).isEqualTo(1230 + 15);
    }

    @Test
    void token_analytics_refuse_dates_that_are_not_dates_or_out_of_order() throws Exception {
        HttpResponse<String> notADate = gateway.get("/api/v1/analytics/tokens?from=yesterday");
        assertThat(notADate.statusCode()).isEqualTo(400);
        assertThat(json(notADate).get("message").asText()).contains("from must be a date");

        HttpResponse<String> backwards = gateway.get("/api/v1/analytics/tokens?from=2026-11-21&to=2026-11-20");
        assertThat(backwards.statusCode()).isEqualTo(400);
        assertThat(json(backwards).get("message").asText()).contains("is after");
    }

    @Test
    void the_audit_log_lists_the_callers_tool_calls_with_redacted_arguments_and_filters() throws Exception {
        JsonNode all = json(gateway.get("/api/v1/audit"));
        assertThat(all.findValuesAsText("callId")).containsExactlyInAnyOrder("c1", "c2");

        JsonNode read = json(gateway.get("/api/v1/audit?tool=read")).get(0);
        assertThat(read.get("status").asText()).isEqualTo("failed");
        assertThat(read.get("error").asText()).isEqualTo("no such file");
        assertThat(read.get("arguments").asText()).contains("[REDACTED]").doesNotContain("ghp_abcdef");
        assertThat(read.get("byUser").asBoolean()).isFalse();
        assertThat(read.get("userId").asText()).isEqualTo(ME);

        JsonNode ok = json(gateway.get("/api/v1/audit?status=ok&sessionId=" + mine));
        assertThat(ok).hasSize(1);
        assertThat(ok.get(0).get("callId").asText()).isEqualTo("c1");
        assertThat(ok.get(0).get("durationMs").asLong()).isEqualTo(15);

        assertThat(json(gateway.get("/api/v1/audit?sessionId=" + theirs))).isEmpty();
    }

    @Test
    void the_audit_log_refuses_a_status_it_does_not_know_and_a_limit_out_of_range() throws Exception {
        HttpResponse<String> status = gateway.get("/api/v1/audit?status=exploded");
        assertThat(status.statusCode()).isEqualTo(400);
        assertThat(json(status).get("message").asText()).contains("status must be one of requested, started, ok");

        assertThat(gateway.get("/api/v1/audit?limit=0").statusCode()).isEqualTo(400);
        assertThat(gateway.get("/api/v1/audit?limit=1001").statusCode()).isEqualTo(400);
    }

    @Test
    void the_audit_export_is_json_lines_oldest_first() throws Exception {
        HttpResponse<String> r = gateway.get("/api/v1/audit/export");

        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.headers().firstValue("Content-Type").orElse("")).startsWith("application/x-ndjson");
        List<String> lines = r.body().lines().toList();
        assertThat(lines).hasSize(2);
        assertThat(r.body()).endsWith("\n");
        assertThat(lines.stream().map(ReadModelEndpointsIT::parse).map(n -> n.get("callId").asText()))
                .containsExactly("c1", "c2");
        assertThat(r.body()).doesNotContain("ghp_abcdef").doesNotContain("mallory");

        assertThat(gateway.get("/api/v1/audit/export?tool=shell").body().lines()).hasSize(1);
        assertThat(gateway.get("/api/v1/audit/export?from=2026-11-21").body()).isEmpty();
    }

    @Test
    void the_sessions_read_model_lists_the_callers_sessions_newest_first_with_their_last_message() throws Exception {
        JsonNode list = json(gateway.get("/api/v1/read-models/sessions"));

        assertThat(list.findValuesAsText("sessionId")).containsExactly(mine, mineToo);
        JsonNode report = list.get(0);
        assertThat(report.get("status").asText()).isEqualTo("IDLE");
        assertThat(report.get("lastMessage").asText()).isEqualTo("There are 42 penguin colonies in the file.");
        assertThat(report.get("usage").get("totalTokens").asLong()).isEqualTo(2280);
        assertThat(report.get("lastOutcome").asText()).isEqualTo("COMPLETED");

        assertThat(json(gateway.get("/api/v1/read-models/sessions?status=running")).findValuesAsText("sessionId"))
                .containsExactly(mineToo);
        assertThat(json(gateway.get("/api/v1/read-models/sessions?limit=1&offset=1")).findValuesAsText("sessionId"))
                .containsExactly(mineToo);
        assertThat(gateway.get("/api/v1/read-models/sessions?status=sleeping").statusCode()).isEqualTo(400);
    }

    @Test
    void a_rebuild_answers_202_at_once_and_its_progress_reaches_caught_up_with_the_same_rows() throws Exception {
        HttpResponse<String> accepted = gateway.post("/api/v1/admin/rebuild-projections");

        assertThat(accepted.statusCode()).isEqualTo(202);
        JsonNode run = json(accepted);
        assertThat(run.get("reason").asText()).isEqualTo("rebuild");
        Await.until("the rebuild caught up", WAIT, () -> {
            JsonNode now = json(gateway.get("/api/v1/admin/rebuild-projections"));
            return now.get("run").asLong() == run.get("run").asLong() && now.get("state").asText().equals("caught_up");
        });
        JsonNode done = json(gateway.get("/api/v1/admin/rebuild-projections"));
        assertThat(done.get("percent").asDouble()).isEqualTo(100.0);
        assertThat(done.get("eventsApplied").asLong()).isGreaterThanOrEqualTo(15);

        assertThat(json(gateway.get("/api/v1/analytics/tokens?from=2026-11-01&to=2026-11-30")).get("total")
                .get("totalTokens").asLong()).isEqualTo(1050 + 1230 + 15);
        assertThat(json(gateway.get("/api/v1/search?q=penguin")).get("results")).hasSize(2);
    }

    @Test
    void every_read_model_endpoint_needs_the_token() throws Exception {
        for (String path : List.of("/api/v1/search?q=x", "/api/v1/analytics/tokens", "/api/v1/audit",
                "/api/v1/audit/export", "/api/v1/read-models/sessions", "/api/v1/admin/rebuild-projections")) {
            assertThat(gateway.getWithoutToken(path).statusCode()).as(path).isEqualTo(401);
        }
    }

    static JsonNode json(HttpResponse<String> r) {
        return parse(r.body());
    }

    static JsonNode parse(String s) {
        try {
            return Json.mapper().readTree(s);
        } catch (Exception e) {
            throw new AssertionError("not JSON: " + s, e);
        }
    }
}
