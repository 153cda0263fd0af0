package dev.agentbus.cli.commands;

import dev.agentbus.cli.Events;
import dev.agentbus.cli.FakeGateway;
import dev.agentbus.cli.TestCli;
import dev.agentbus.events.Json;
import dev.agentbus.events.session.EventEnvelope;
import dev.agentbus.events.session.TurnOutcome;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** replay, export, import, fork and rewind: the CLI's side of moving sessions and their history. */
class TransferCommandsTest {
    @TempDir
    Path home;
    @TempDir
    Path files;
    FakeGateway gateway;
    TestCli cli;
    final List<EventEnvelope> log = Events.turn(TurnOutcome.COMPLETED, "There are 2 files.", null);

    @BeforeEach
    void setUp() throws Exception {
        gateway = new FakeGateway();
        cli = new TestCli(home);
        cli.env.put("AGENTBUS_URL", gateway.url());
    }

    @AfterEach
    void tearDown() {
        gateway.close();
    }

    private Path exported() throws Exception {
        return Files.writeString(files.resolve("s1.jsonl"), FakeGateway.ndjson(log), StandardCharsets.UTF_8);
    }

    @Test
    void replay_of_a_file_needs_no_gateway_at_all() throws Exception {
        Path file = exported();
        cli.env.put("AGENTBUS_URL", "http://127.0.0.1:9"); // nothing listens there

        assertThat(cli.run("replay", file.toString())).as(cli.err()).isZero();

        assertThat(cli.out()).contains("Session s1").contains("you ▸ How many files?")
                .contains("✓ shell ok").contains("■ turn ended COMPLETED")
                .contains("State at seq 10 of 10").contains("assistant ▸ There are 2 files.");
        assertThat(gateway.requests()).isEmpty();
    }

    @Test
    void replay_at_a_seq_stops_the_timeline_there_and_shows_the_state_then() throws Exception {
        assertThat(cli.run("replay", exported().toString(), "--at", "4")).isZero();

        assertThat(cli.out()).contains("model answered").doesNotContain("started on w1")
                .contains("State at seq 4 of 10").contains("status   RUNNING");
    }

    @Test
    void replay_step_reads_its_commands_from_a_pipe() throws Exception {
        cli.input("", "", "q");

        assertThat(cli.run("replay", exported().toString(), "--step")).isZero();

        assertThat(cli.out()).contains("session created").contains("you ▸ How many files?")
                .contains("model call 1 started").doesNotContain("model answered")
                .contains("State at seq 3 of 10");
    }

    @Test
    void replay_of_a_session_id_reads_the_log_from_the_gateway() {
        gateway.ndjson("/api/v1/sessions/s1/log", FakeGateway.ndjson(log));

        assertThat(cli.run("replay", "s1")).isZero();

        assertThat(cli.out()).contains("State at seq 10 of 10");
        assertThat(gateway.requests("GET", "/api/v1/sessions/s1/log")).hasSize(1);
    }

    @Test
    void replay_of_a_broken_file_names_the_line_and_exits_1() throws Exception {
        List<String> lines = new java.util.ArrayList<>(FakeGateway.ndjson(log).lines().toList());
        lines.set(6, "not json");
        Path file = Files.write(files.resolve("broken.jsonl"), lines);

        assertThat(cli.run("replay", file.toString())).isEqualTo(1);

        assertThat(cli.err()).contains(file + " line 7 is not an event envelope");
        assertThat(cli.out()).isEmpty();
    }

    @Test
    void replay_of_a_missing_file_says_so_and_exits_1() {
        assertThat(cli.run("replay", files.resolve("nope.jsonl").toString())).isEqualTo(1);
        assertThat(cli.err()).contains("no such file");
        assertThat(gateway.requests()).isEmpty();
    }

    @Test
    void replay_at_a_seq_past_the_end_is_a_usage_error() throws Exception {
        assertThat(cli.run("replay", exported().toString(), "--at", "11")).isEqualTo(64);
        assertThat(cli.err()).contains("--at 11 is not a seq of this session: it has seqs 1 to 10");
    }

    @Test
    void export_writes_the_log_to_a_file_as_sent() throws Exception {
        String body = FakeGateway.ndjson(log);
        routeNdjson("/api/v1/sessions/s1/export", body);
        Path target = files.resolve("out/s1.jsonl");

        assertThat(cli.run("export", "s1", "-o", target.toString())).as(cli.err()).isZero();

        assertThat(target).hasContent(body.stripTrailing());
        assertThat(Files.readString(target)).isEqualTo(body);
        assertThat(cli.out()).contains("exported 10 events of session s1 to " + target);
    }

    @Test
    void export_without_a_file_prints_the_log() {
        routeNdjson("/api/v1/sessions/s1/export", FakeGateway.ndjson(log));
        assertThat(cli.run("export", "s1")).isZero();
        assertThat(cli.out()).isEqualTo(FakeGateway.ndjson(log));
    }

    @Test
    void import_sends_the_file_and_prints_the_new_session() throws Exception {
        gateway.json("POST", "/api/v1/sessions/import", 201,
                "{\"id\":\"new-1\",\"fromSessionId\":\"s1\",\"atSeq\":10,\"checkpoint\":null}");

        assertThat(cli.run("import", exported().toString(), "--title", "from ada")).as(cli.err()).isZero();

        FakeGateway.Request sent = gateway.requests("POST", "/api/v1/sessions/import").getFirst();
        assertThat(sent.body()).isEqualTo(FakeGateway.ndjson(log));
        assertThat(sent.header("Content-Type")).isEqualTo("application/x-ndjson");
        assertThat(sent.query()).isEqualTo("title=from+ada");
        assertThat(cli.out()).contains("imported " + exported() + " as session new-1 (from session s1 at seq 10)");
    }

    @Test
    void import_of_a_broken_file_sends_nothing_and_names_the_line() throws Exception {
        Path file = Files.writeString(files.resolve("b.jsonl"), FakeGateway.ndjson(log.subList(0, 3))
                + "{\"type\":\"x\"}\n");

        assertThat(cli.run("import", file.toString())).isEqualTo(1);

        assertThat(cli.err()).contains(file + " line 4 is not an event envelope");
        assertThat(gateway.requests()).isEmpty();
    }

    @Test
    void fork_posts_the_seq_and_prints_the_new_session_and_its_checkpoint() throws Exception {
        gateway.json("POST", "/api/v1/sessions/s1/fork", 201,
                "{\"id\":\"f-1\",\"fromSessionId\":\"s1\",\"atSeq\":7,\"checkpoint\":\"abc1234def\"}");

        assertThat(cli.run("fork", "s1", "--at", "7", "--title", "try again")).as(cli.err()).isZero();

        var body = Json.mapper().readTree(gateway.requests("POST", "/api/v1/sessions/s1/fork").getFirst().body());
        assertThat(body.get("atSeq").asLong()).isEqualTo(7);
        assertThat(body.get("title").asText()).isEqualTo("try again");
        assertThat(cli.out()).contains("forked session s1 at seq 7 as f-1")
                .contains("workspace restored from checkpoint abc1234def");
    }

    @Test
    void fork_needs_at() {
        assertThat(cli.run("fork", "s1")).isEqualTo(64);
        assertThat(cli.err()).contains("--at");
        assertThat(gateway.requests()).isEmpty();
    }

    @Test
    void fork_beyond_the_log_reports_the_gateways_message() {
        gateway.json("POST", "/api/v1/sessions/s1/fork", 400,
                "{\"error\":\"bad_request\",\"message\":\"atSeq must be between 1 and 10 (the session's last seq), not 99\"}");

        assertThat(cli.run("fork", "s1", "--at", "99")).isEqualTo(1);
        assertThat(cli.err()).contains("atSeq must be between 1 and 10");
    }

    @Test
    void fork_that_no_orchestrator_records_exits_1() {
        gateway.json("POST", "/api/v1/sessions/s1/fork", 202, "{\"id\":\"f-1\",\"status\":\"pending\"}");
        assertThat(cli.run("fork", "s1", "--at", "3")).isEqualTo(1);
        assertThat(cli.err()).contains("is an orchestrator running?");
    }

    @Test
    void rewind_posts_the_checkpoint_and_prints_what_was_restored() throws Exception {
        gateway.json("POST", "/api/v1/sessions/s1/rewind", 200, "{\"callId\":\"call_x\",\"restored\":"
                + "\"abc1234def\",\"output\":\"restored the workspace\",\"checkpoint\":\"fff0000aaa\",\"seq\":14}");

        assertThat(cli.run("rewind", "s1", "abc1234")).as(cli.err()).isZero();

        var body = Json.mapper().readTree(gateway.requests("POST", "/api/v1/sessions/s1/rewind").getFirst().body());
        assertThat(body.get("checkpoint").asText()).isEqualTo("abc1234");
        assertThat(cli.out()).contains("restored the workspace of session s1 to checkpoint abc1234def")
                .contains("the rewind is checkpoint fff0000aaa");
    }

    @Test
    void rewind_while_a_turn_runs_reports_the_conflict() {
        gateway.json("POST", "/api/v1/sessions/s1/rewind", 409,
                "{\"error\":\"conflict\",\"message\":\"session s1 is running; cancel the turn or wait for it to end before rewinding\"}");

        assertThat(cli.run("rewind", "s1", "abc1234")).isEqualTo(1);
        assertThat(cli.err()).contains("session s1 is running");
    }

    private void routeNdjson(String path, String body) {
        gateway.ndjson(path, body);
    }
}
