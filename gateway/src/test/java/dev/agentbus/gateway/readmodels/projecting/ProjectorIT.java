package dev.agentbus.gateway.readmodels.projecting;

import dev.agentbus.broker.EmbeddedKafkaBroker;
import dev.agentbus.eventbus.KafkaSettings;
import dev.agentbus.eventbus.TopicAdmin;
import dev.agentbus.events.Json;
import dev.agentbus.events.session.SessionEvent;
import dev.agentbus.events.session.TokenUsage;
import dev.agentbus.events.session.ToolCallSpec;
import dev.agentbus.events.session.TurnOutcome;
import dev.agentbus.gateway.readmodels.Await;
import dev.agentbus.gateway.readmodels.LogWriter;
import dev.agentbus.gateway.readmodels.ReadModelDatabase;
import dev.agentbus.gateway.readmodels.TestPostgres;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The projector against a real broker and a real PostgreSQL: what the log becomes in each table, that every record
 * is applied exactly once across restarts and competing replicas, that bad records are skipped, and that a rebuild
 * gives the same rows again. Each test projects into a database of its own (from offset 0 of the shared log) and
 * looks only at its own sessions and users.
 */
class ProjectorIT {
    private static final Duration WAIT = Duration.ofSeconds(60);

    @TempDir
    static Path dir;
    static EmbeddedKafkaBroker broker;
    static KafkaSettings kafka;
    static LogWriter log;

    ReadModelDatabase database;
    final List<Projector> projectors = new ArrayList<>();

    @BeforeAll
    static void startBroker() {
        broker = EmbeddedKafkaBroker.builder().dataDir(dir.resolve("kafka")).port(0).build();
        broker.start();
        kafka = new KafkaSettings(broker.bootstrapServers(), 3, "0");
        TopicAdmin.ensureTopics(kafka);
        log = new LogWriter(kafka);
    }

    @AfterAll
    static void stopBroker() {
        log.close();
        broker.close();
    }

    @BeforeEach
    void newDatabase() {
        database = ReadModelDatabase.connect(TestPostgres.newDatabase(), null, null);
    }

    @AfterEach
    void stop() {
        projectors.forEach(Projector::close);
        database.close();
    }

    @Test
    void a_session_log_becomes_a_row_in_every_read_model() throws Exception {
        String s = session();
        String user = "ada-" + s;
        log.append(s, user, new SessionEvent.SessionCreated("hello file"));
        log.append(s, user, new SessionEvent.UserMessagePosted("please create hello.txt with the greeting"));
        log.append(s, user, new SessionEvent.ModelCallStarted("r1", 1));
        log.append(s, user, new SessionEvent.ModelCallCompleted("r1", "qwen-7b", null, null,
                List.of(new ToolCallSpec("call_1", "write",
                        "{\"path\":\"hello.txt\",\"content\":\"OPENAI_API_KEY=sk-abcdefghijklmnopqrstuvwx\"}")),
                new TokenUsage(100, 10, 110), "tool_calls"));
        log.append(s, user, new SessionEvent.ToolCallRequested("call_1", "write",
                "{\"path\":\"hello.txt\",\"content\":\"OPENAI_API_KEY=sk-abcdefghijklmnopqrstuvwx\"}"));
        log.append(s, user, new SessionEvent.ToolCallStarted("call_1", "sandbox-worker-0"));
        log.append(s, user, new SessionEvent.ToolCallCompleted("call_1", true, "created hello.txt", null, null,
                false, 12, false));
        log.append(s, user, new SessionEvent.ModelCallStarted("r2", 2));
        log.append(s, user, new SessionEvent.ModelCallCompleted("r2", "qwen-7b", "Created hello.txt with a greeting.",
                null, List.of(), new TokenUsage(200, 20, 220), "stop"));
        log.append(s, user, new SessionEvent.TurnEnded(TurnOutcome.COMPLETED, "Created hello.txt with a greeting.",
                null));

        start();
        awaitSession(s, 10);

        Map<String, Object> row = one("SELECT * FROM sessions WHERE session_id = '" + s + "'");
        assertThat(row).containsEntry("user_id", user).containsEntry("title", "hello file")
                .containsEntry("status", "IDLE").containsEntry("in_turn", false).containsEntry("turns", 1)
                .containsEntry("model_calls", 2).containsEntry("total_tokens", 330L)
                .containsEntry("last_message", "Created hello.txt with a greeting.")
                .containsEntry("last_message_role", "assistant").containsEntry("last_outcome", "COMPLETED")
                .containsEntry("last_model", "qwen-7b");

        assertThat(column("SELECT role FROM messages WHERE session_id = '" + s + "' ORDER BY seq"))
                .containsExactly("user", "assistant");

        Map<String, Object> tokens = one("SELECT * FROM token_usage_daily WHERE user_id = '" + user + "'");
        assertThat(tokens).containsEntry("model", "qwen-7b").containsEntry("model_calls", 2L)
                .containsEntry("prompt_tokens", 300L).containsEntry("completion_tokens", 30L)
                .containsEntry("total_tokens", 330L);
        assertThat(tokens.get("day").toString()).isEqualTo("2026-11-20");

        Map<String, Object> call = one("SELECT * FROM audit_tool_calls WHERE session_id = '" + s + "'");
        assertThat(call).containsEntry("call_id", "call_1").containsEntry("tool", "write")
                .containsEntry("status", "ok").containsEntry("by_user", false)
                .containsEntry("worker", "sandbox-worker-0").containsEntry("duration_ms", 12L)
                .containsEntry("user_id", user);
        assertThat((String) call.get("arguments")).contains("[REDACTED]").doesNotContain("sk-abcdefghij");
    }

    @Test
    void a_deleted_session_leaves_the_list_and_the_search_index_but_keeps_its_audit_and_usage() throws Exception {
        String s = session();
        String user = "grace-" + s;
        log.append(s, user, new SessionEvent.SessionCreated("to be deleted"));
        log.append(s, user, new SessionEvent.UserMessagePosted("the zebra password is hunter2"));
        log.append(s, user, new SessionEvent.ModelCallStarted("r1", 1));
        log.append(s, user, new SessionEvent.ModelCallCompleted("r1", "qwen-7b", "Noted the zebra password.", null,
                List.of(), new TokenUsage(50, 5, 55), "stop"));
        log.append(s, user, new SessionEvent.TurnEnded(TurnOutcome.COMPLETED, "Noted the zebra password.", null));
        start();
        awaitSession(s, 5);
        assertThat(column("SELECT role FROM messages WHERE session_id = '" + s + "'")).hasSize(2);

        log.append(s, user, new SessionEvent.SessionDeleted(user));
        awaitSession(s, 6);

        Map<String, Object> row = one("SELECT * FROM sessions WHERE session_id = '" + s + "'");
        assertThat(row).containsEntry("status", "DELETED").containsEntry("last_message", null);
        assertThat(column("SELECT role FROM messages WHERE session_id = '" + s + "'")).isEmpty();
        assertThat(one("SELECT * FROM token_usage_daily WHERE user_id = '" + user + "'"))
                .containsEntry("total_tokens", 55L);
    }

    @Test
    void every_record_is_applied_once_across_restarts_and_competing_replicas() throws Exception {
        String user = "bob-" + session();
        List<String> sessions = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            sessions.add(turnWithUsage(user, 10));
        }
        // Two replicas sharing one database start together and race for the same records.
        start();
        start();
        awaitTokens(user, 20 * 10);
        projectors.forEach(Projector::close);
        projectors.clear();

        // More log while nobody projects; then a restart picks up from the stored offsets.
        for (int i = 0; i < 10; i++) {
            sessions.add(turnWithUsage(user, 10));
        }
        start();
        start();
        awaitTokens(user, 30 * 10);
        awaitCaughtUp(); // every event projected and its offset stored: a double count would show now

        assertThat(one("SELECT sum(model_calls) AS calls, sum(total_tokens) AS total FROM token_usage_daily "
                + "WHERE user_id = '" + user + "'")).containsEntry("calls", new java.math.BigDecimal(30))
                .containsEntry("total", new java.math.BigDecimal(300));
        assertThat(one("SELECT count(*) AS n FROM messages WHERE user_id = '" + user + "'"))
                .containsEntry("n", 60L);
        assertThat(one("SELECT count(*) AS n, sum(turns) AS turns FROM sessions WHERE user_id = '" + user + "'"))
                .containsEntry("n", 30L).containsEntry("turns", 30L);
    }

    @Test
    void a_batch_that_fails_before_its_offsets_are_written_leaves_no_rows_behind() throws Exception {
        String user = "eve-" + session();
        for (int i = 0; i < 5; i++) {
            turnWithUsage(user, 10);
        }
        // Fault injection in the real database: the first two writes of offsets fail, after the batch has written
        // its rows in the same transaction. A sequence is not rolled back, so it counts the attempts.
        database.migrate();
        execute("CREATE SEQUENCE offset_write_attempts");
        execute("""
                CREATE FUNCTION fail_twice() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN
                    IF nextval('offset_write_attempts') <= 2 THEN
                        RAISE EXCEPTION 'injected failure while storing offsets';
                    END IF;
                    RETURN NEW;
                END $$""");
        execute("CREATE TRIGGER fail_twice BEFORE INSERT OR UPDATE ON projection_offsets "
                + "FOR EACH ROW EXECUTE FUNCTION fail_twice()");

        start();
        awaitTokens(user, 50);
        awaitCaughtUp();

        assertThat(((Number) one("SELECT last_value FROM offset_write_attempts").get("last_value")).longValue())
                .as("the projector retried after the injected failures").isGreaterThan(2);
        assertThat(one("SELECT sum(model_calls) AS calls, sum(total_tokens) AS total FROM token_usage_daily "
                + "WHERE user_id = '" + user + "'")).containsEntry("calls", new java.math.BigDecimal(5))
                .containsEntry("total", new java.math.BigDecimal(50));
        assertThat(one("SELECT sum(turns) AS turns FROM sessions WHERE user_id = '" + user + "'"))
                .containsEntry("turns", 5L);
    }

    @Test
    void records_that_are_not_events_are_skipped_and_counted_and_unknown_types_are_tolerated() throws Exception {
        String s = session();
        String user = "cy-" + s;
        log.append(s, user, new SessionEvent.SessionCreated("tolerant"));
        log.appendGarbage(s, "this is not JSON".getBytes(StandardCharsets.UTF_8));
        log.append(s, user, new SessionEvent.UnknownEvent("session.renamed.v7",
                Json.mapper().createObjectNode().put("title", "from the future")));
        log.append(s, user, new SessionEvent.UserMessagePosted("still projected after the bad record"));
        // PostgreSQL text cannot hold NUL; a model can still write one. It must not stop the read models.
        log.append(s, user, new SessionEvent.ModelCallCompleted("r", "m", "nul\u0000inside", null, List.of(
                new ToolCallSpec("call\u0000x", "shell", "{\"command\":\"echo \u0000\"}")), TokenUsage.ZERO,
                "tool_calls"));

        start();
        awaitSession(s, 4);

        assertThat(one("SELECT status, last_message FROM sessions WHERE session_id = '" + s + "'"))
                .containsEntry("status", "RUNNING")
                .containsEntry("last_message", "nul inside");
        assertThat(column("SELECT text FROM messages WHERE session_id = '" + s + "' ORDER BY seq"))
                .containsExactly("still projected after the bad record", "nul inside");
        assertThat(column("SELECT call_id FROM audit_tool_calls WHERE session_id = '" + s + "'"))
                .containsExactly("call x");
        Await.until("the skipped record is counted", WAIT, () ->
                ((Long) one("SELECT records_skipped FROM projection_runs").get("records_skipped")) >= 1);
    }

    @Test
    void a_rebuild_empties_the_read_models_and_reads_the_log_again_with_the_same_result() throws Exception {
        String user = "dee-" + session();
        String s = turnWithUsage(user, 7);
        start();
        start(); // a second replica, which must follow the rebuild the first one starts
        awaitTokens(user, 7);
        Await.until("the first run caught up", WAIT, () -> "caught_up".equals(projectors.getFirst().status().state()));
        execute("UPDATE sessions SET title = 'tampered' WHERE session_id = '" + s + "'");

        ProjectionRuns.Status started = projectors.getFirst().rebuild();
        assertThat(started.reason()).isEqualTo("rebuild");

        Await.until("the rebuild caught up", WAIT, () -> {
            ProjectionRuns.Status now = projectors.getFirst().status();
            return now.run().equals(started.run()) && "caught_up".equals(now.state());
        });
        assertThat(one("SELECT title FROM sessions WHERE session_id = '" + s + "'")).containsEntry("title", "turn");
        // Both replicas on the rebuild's run and at the end of the log: a double count by the second would show now.
        Await.until("the second replica follows the rebuild", WAIT, () -> {
            ProjectionRuns.Status second = projectors.get(1).status();
            return java.util.Objects.equals(second.run(), started.run()) && "caught_up".equals(second.state());
        });
        awaitCaughtUp();
        assertThat(one("SELECT sum(total_tokens) AS total FROM token_usage_daily WHERE user_id = '" + user + "'"))
                .containsEntry("total", new java.math.BigDecimal(7));
        assertThat(one("SELECT count(*) AS n FROM sessions WHERE session_id = '" + s + "'")).containsEntry("n", 1L);
        ProjectionRuns.Status done = projectors.getFirst().status();
        assertThat(done.percent()).isEqualTo(100.0);
        assertThat(done.eventsApplied()).isGreaterThanOrEqualTo(5);
        assertThat(done.eventsPerSecond()).isPositive();
    }

    // ---- helpers ----------------------------------------------------------------------------------------------

    private static String session() {
        return UUID.randomUUID().toString();
    }

    /** A session with one turn: a message, one model call with that many total tokens, the end of the turn. */
    private static String turnWithUsage(String user, long totalTokens) {
        String s = session();
        log.append(s, user, new SessionEvent.SessionCreated("turn"));
        log.append(s, user, new SessionEvent.UserMessagePosted("count something"));
        log.append(s, user, new SessionEvent.ModelCallStarted("r", 1));
        log.append(s, user, new SessionEvent.ModelCallCompleted("r", "m", "counted", null, List.of(),
                new TokenUsage(totalTokens, 0, totalTokens), "stop"));
        log.append(s, user, new SessionEvent.TurnEnded(TurnOutcome.COMPLETED, "counted", null));
        return s;
    }

    private void start() {
        projectors.add(new Projector(database, kafka).start());
    }

    private void awaitSession(String s, long lastSeq) throws Exception {
        Await.until("session " + s + " is projected up to seq " + lastSeq, WAIT, () ->
                !column("SELECT last_seq FROM sessions WHERE session_id = '" + s + "' AND last_seq >= " + lastSeq)
                        .isEmpty());
    }

    /** Until the stored offsets of every partition of the session log have reached its end. */
    private void awaitCaughtUp() throws Exception {
        Map<org.apache.kafka.common.TopicPartition, Long> ends;
        try (var consumer = new org.apache.kafka.clients.consumer.KafkaConsumer<String, byte[]>(
                kafka.consumer(null, "projector-it"))) {
            ends = consumer.endOffsets(consumer.partitionsFor(dev.agentbus.events.topics.Topics.SESSION_EVENTS.name())
                    .stream().map(p -> new org.apache.kafka.common.TopicPartition(p.topic(), p.partition())).toList());
        }
        for (var end : ends.entrySet()) {
            Await.until("partition " + end.getKey() + " is projected up to offset " + end.getValue(), WAIT, () ->
                    end.getValue() == 0 || !column("SELECT next_offset FROM projection_offsets WHERE topic = '"
                            + end.getKey().topic() + "' AND partition = " + end.getKey().partition()
                            + " AND next_offset >= " + end.getValue()).isEmpty());
        }
    }

    private void awaitTokens(String user, long total) throws Exception {
        Await.until(user + " has " + total + " tokens", WAIT, () -> {
            Object sum = one("SELECT coalesce(sum(total_tokens), 0) AS total FROM token_usage_daily WHERE user_id = '"
                    + user + "'").get("total");
            return ((Number) sum).longValue() >= total;
        });
    }

    private void execute(String sql) throws SQLException {
        database.transaction(db -> {
            try (Statement st = db.createStatement()) {
                return st.executeUpdate(sql);
            }
        });
    }

    private Map<String, Object> one(String sql) throws SQLException {
        return database.transaction(db -> {
            try (Statement st = db.createStatement(); ResultSet rs = st.executeQuery(sql)) {
                assertThat(rs.next()).as("a row for " + sql).isTrue();
                Map<String, Object> row = new HashMap<>();
                for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
                    row.put(rs.getMetaData().getColumnLabel(i), rs.getObject(i));
                }
                return row;
            }
        });
    }

    private List<Object> column(String sql) throws SQLException {
        return database.transaction(db -> {
            try (Statement st = db.createStatement(); ResultSet rs = st.executeQuery(sql)) {
                List<Object> values = new ArrayList<>();
                while (rs.next()) {
                    values.add(rs.getObject(1));
                }
                return values;
            }
        });
    }
}
