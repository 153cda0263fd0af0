package dev.agentbus.cli.commands;

import dev.agentbus.cli.Events;
import dev.agentbus.cli.FakeGateway;
import dev.agentbus.cli.OnFakeGateway;
import dev.agentbus.cli.FakeGateway.SseScript;
import dev.agentbus.cli.TestCli;
import dev.agentbus.events.session.EventEnvelope;
import dev.agentbus.events.session.SessionEvent;
import dev.agentbus.events.session.TurnOutcome;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static dev.agentbus.cli.Events.at;
import static org.assertj.core.api.Assertions.assertThat;

class RunCommandTest extends OnFakeGateway {
    private static final String EVENTS = "/api/v1/sessions/s1/events";

    @BeforeEach
    void routes() {
        gateway.json("POST", "/api/v1/sessions", 201, "{\"id\":\"s1\"}")
                .json("POST", "/api/v1/sessions/s1/messages", 202, "{\"inputId\":\"in-1\"}")
                .json("POST", "/api/v1/sessions/s1/cancel", 202, "");
        cli.env.put("AGENTBUS_TOKEN", "t0k");
    }

    @Test
    void a_completed_turn_exits_0_and_shows_tokens_tool_calls_and_the_answer() {
        List<EventEnvelope> turn = Events.turn(TurnOutcome.COMPLETED, "There are 2 files.", null);
        gateway.sse(EVENTS, SseScript.thenHold(Events.sse(turn, 1, 10)));

        int code = cli.run("run", "How many files?", "--title", "count files");

        assertThat(code).isZero();
        String out = cli.out();
        assertThat(out).contains("Let me look.")
                .contains("→ shell {\"command\":\"ls\"}")
                .contains("✓ a.txt").contains("b.txt")
                .contains("tokens: 300 prompt · 30 completion · 330 total");
        // streamed once as deltas, not again from model_call.completed; the answer (not streamed) printed once
        assertThat(count(out, "Let me look.")).isEqualTo(1);
        assertThat(count(out, "There are 2 files.")).isEqualTo(1);
        assertThat(out.indexOf("→ shell")).isLessThan(out.indexOf("There are 2 files."));
        assertThat(cli.err()).isEmpty();

        assertThat(gateway.requests("POST", "/api/v1/sessions").get(0).body()).contains("\"title\":\"count files\"");
        assertThat(gateway.requests("POST", "/api/v1/sessions/s1/messages").get(0).body())
                .contains("\"text\":\"How many files?\"");
        FakeGateway.Request stream = gateway.requests("GET", EVENTS).get(0);
        assertThat(stream.query()).isEqualTo("after=0");
        assertThat(stream.header("Last-Event-ID")).isNull();
        assertThat(gateway.requests()).allSatisfy(r -> assertThat(r.header("Authorization")).isEqualTo("Bearer t0k"));
    }

    @Test
    void images_are_uploaded_to_the_workspace_and_sent_by_path_with_the_task(@org.junit.jupiter.api.io.TempDir
                                                                              java.nio.file.Path dir)
            throws Exception {
        java.nio.file.Path shot = dir.resolve("shot.png");
        java.nio.file.Files.writeString(shot, "not really a png");
        gateway.json("PUT", "/api/v1/sessions/s1/files/uploads/shot.png", 200, "{\"path\":\"uploads/shot.png\"}")
                .json("GET", "/api/v1/sessions/s1", 200, "{\"sessionId\":\"s1\",\"status\":\"IDLE\",\"lastSeq\":1}");
        List<EventEnvelope> turn = Events.turn(TurnOutcome.COMPLETED, "A cat.", null);
        gateway.sse(EVENTS, SseScript.thenHold(Events.sse(turn, 2, 10)));

        int code = cli.run("run", "What is this?", "--image", shot.toString(), "--image", "workspace:pics/b.png");

        assertThat(code).isZero();
        assertThat(gateway.requests("PUT", "/api/v1/sessions/s1/files/uploads/shot.png").get(0).body())
                .isEqualTo("not really a png");
        assertThat(gateway.requests("POST", "/api/v1/sessions/s1/messages").get(0).body())
                .contains("\"images\":[\"uploads/shot.png\",\"pics/b.png\"]");
        assertThat(gateway.requests("GET", EVENTS).get(0).query()).as("the uploads are not this turn")
                .isEqualTo("after=1");
    }

    @Test
    void a_missing_image_file_is_a_usage_error_before_anything_is_sent() {
        assertThat(cli.run("run", "What is this?", "--image", "/no/such/shot.png")).isEqualTo(64);
        assertThat(cli.err()).contains("no such file: /no/such/shot.png");
        assertThat(gateway.requests()).isEmpty();
    }

    @Test
    void iteration_cap_exits_2() {
        List<EventEnvelope> turn = Events.turn(TurnOutcome.ITERATION_CAP, "still working", "reached 2 model calls");
        gateway.sse(EVENTS, SseScript.thenHold(Events.sse(turn, 1, 10)));

        assertThat(cli.run("run", "How many files?")).isEqualTo(2);
        assertThat(cli.err()).contains("iteration cap").contains("reached 2 model calls");
    }

    @Test
    void an_error_outcome_exits_1_with_the_message() {
        List<EventEnvelope> turn = Events.turn(TurnOutcome.ERROR, "", "model server unreachable after 3 retries");
        gateway.sse(EVENTS, SseScript.thenHold(Events.sse(turn, 1, 10)));

        assertThat(cli.run("run", "How many files?")).isEqualTo(1);
        assertThat(cli.err()).contains("the turn failed: model server unreachable after 3 retries");
    }

    @Test
    void a_cancelled_turn_exits_0() {
        List<EventEnvelope> turn = Events.turn(TurnOutcome.CANCELLED, "", "cancelled by u1");
        gateway.sse(EVENTS, SseScript.thenHold(Events.sse(turn, 1, 10)));

        assertThat(cli.run("run", "How many files?")).isZero();
        assertThat(cli.out()).contains("⊘ cancelled");
    }

    @Test
    void a_rejected_message_exits_1() {
        gateway.sse(EVENTS, SseScript.thenHold(
                FakeGateway.event(at(1, new SessionEvent.SessionCreated("t"))),
                FakeGateway.event(at(2, new SessionEvent.InputRejected("in-1", "post_user_message.v1",
                        "a turn is already running")))));

        assertThat(cli.run("run", "hi")).isEqualTo(1);
        assertThat(cli.err()).contains("the session rejected the message: a turn is already running");
    }

    @Test
    void after_a_dropped_connection_it_resumes_from_the_last_seq_without_duplicates() {
        List<EventEnvelope> turn = Events.turn(TurnOutcome.COMPLETED, "There are 2 files.", null);
        // The first connection dies after seq 4; the second replays 3 and 4 again, which must not show twice.
        gateway.sse(EVENTS, SseScript.thenClose(Events.sse(turn, 1, 4)), SseScript.thenHold(Events.sse(turn, 3, 10)));

        assertThat(cli.run("run", "How many files?")).isZero();

        List<FakeGateway.Request> streams = gateway.requests("GET", EVENTS);
        assertThat(streams).hasSize(2);
        assertThat(streams.get(1).header("Last-Event-ID")).isEqualTo("4");
        assertThat(streams.get(1).query()).isEqualTo("after=4");
        String out = cli.out();
        assertThat(count(out, "Let me look.")).isEqualTo(1);
        assertThat(count(out, "→ shell")).isEqualTo(1);
        assertThat(count(out, "a.txt")).isEqualTo(1);
        assertThat(count(out, "There are 2 files.")).isEqualTo(1);
    }

    @Test
    void events_missed_between_connections_are_read_from_the_log() {
        List<EventEnvelope> turn = Events.turn(TurnOutcome.COMPLETED, "There are 2 files.", null);
        // The second connection starts at 7: 5 (the tool call) and 6 would be lost without the /log fill.
        gateway.sse(EVENTS, SseScript.thenClose(Events.sse(turn, 1, 4)), SseScript.thenHold(Events.sse(turn, 7, 10)))
                .ndjson("/api/v1/sessions/s1/log", FakeGateway.ndjson(turn));

        assertThat(cli.run("run", "How many files?")).isZero();

        assertThat(count(cli.out(), "→ shell")).isEqualTo(1);
        assertThat(cli.out().indexOf("→ shell")).isLessThan(cli.out().indexOf("a.txt"));
        assertThat(cli.err()).isEmpty();
    }

    @Test
    void continuing_a_session_streams_from_its_current_seq() {
        List<EventEnvelope> turn = Events.turn(TurnOutcome.COMPLETED, "There are 2 files.", null);
        gateway.json("GET", "/api/v1/sessions/s1", 200, "{\"sessionId\":\"s1\",\"status\":\"IDLE\",\"lastSeq\":1}")
                .sse(EVENTS, SseScript.thenHold(Events.sse(turn, 2, 10)));

        assertThat(cli.run("run", "--session", "s1", "How many files?")).isZero();

        assertThat(gateway.requests("POST", "/api/v1/sessions")).isEmpty();
        assertThat(gateway.requests("GET", EVENTS).get(0).query()).isEqualTo("after=1");
        assertThat(cli.out()).contains("There are 2 files.");
    }

    @Test
    void quiet_prints_only_the_answer() {
        List<EventEnvelope> turn = Events.turn(TurnOutcome.COMPLETED, "There are 2 files.", null);
        gateway.sse(EVENTS, SseScript.thenHold(Events.sse(turn, 1, 10)));

        assertThat(cli.run("run", "--quiet", "How many files?")).isZero();
        assertThat(cli.out()).isEqualTo("There are 2 files.\n");
    }

    @Test
    void a_busy_session_exits_1_and_says_how_to_cancel() {
        gateway.json("GET", "/api/v1/sessions/s1", 200, "{\"lastSeq\":5}")
                .json("POST", "/api/v1/sessions/s1/messages", 409, "{\"error\":\"conflict\",\"message\":"
                        + "\"session s1 is running; cancel the turn or wait for it to end\"}");

        assertThat(cli.run("run", "--session", "s1", "hi")).isEqualTo(1);
        assertThat(cli.err()).contains("session s1 is running; cancel the turn or wait for it to end "
                + "(to stop it: agentbus cancel s1)");
    }

    @Test
    void a_session_no_orchestrator_created_is_reported_as_such() {
        gateway.json("POST", "/api/v1/sessions", 202, "{\"id\":\"s1\",\"status\":\"pending\"}");

        assertThat(cli.run("run", "hi")).isEqualTo(1);
        assertThat(cli.err()).contains("no orchestrator has created it").contains("is an orchestrator running?");
        assertThat(gateway.requests("POST", "/api/v1/sessions/s1/messages")).isEmpty();
    }

    @Test
    void micronaut_style_fields_without_a_space_are_read() {
        // As docs/api.md shows the real gateway's stream: `id:` first, no space after the colon.
        List<EventEnvelope> turn = Events.turn(TurnOutcome.COMPLETED, "There are 2 files.", null);
        String[] chunks = Events.sse(turn, 1, 10);
        for (int i = 0; i < chunks.length; i++) {
            String[] lines = chunks[i].split("\n");
            StringBuilder b = new StringBuilder();
            for (String line : lines) {
                if (line.startsWith("id: ")) {
                    b.insert(0, "id:" + line.substring(4) + "\n");
                } else if (!line.isEmpty()) {
                    b.append(line.replaceFirst(": ", ":")).append('\n');
                }
            }
            chunks[i] = b.append('\n').toString();
        }
        gateway.sse(EVENTS, SseScript.thenHold(chunks));

        assertThat(cli.run("run", "How many files?")).isZero();
        assertThat(cli.out()).contains("Let me look.", "→ shell", "There are 2 files.");
    }

    @Test
    void an_unknown_session_exits_1() {
        assertThat(cli.run("run", "--session", "nope", "hi")).isEqualTo(1);
        assertThat(cli.err()).contains("no session nope");
    }

    @Test
    void ctrl_c_cancels_the_turn_and_exits_130() throws Exception {
        List<EventEnvelope> turn = Events.turn(TurnOutcome.COMPLETED, "There are 2 files.", null);
        gateway.sse(EVENTS, SseScript.thenHold(Events.sse(turn, 1, 5))); // the turn never ends by itself

        CompletableFuture<Integer> run = cli.runAsync("run", "How many files?");
        TestCli.await(() -> cli.out().contains("→ shell"), "the tool call to be shown");
        cli.interrupts.fire();

        assertThat(run.get(10, TimeUnit.SECONDS)).isEqualTo(130);
        assertThat(gateway.requests("POST", "/api/v1/sessions/s1/cancel")).hasSize(1);
        assertThat(cli.err()).contains("interrupted");
        assertThat(cli.interrupts.isArmed()).isFalse();
    }

    static int count(String haystack, String needle) {
        int n = 0;
        for (int i = haystack.indexOf(needle); i >= 0; i = haystack.indexOf(needle, i + needle.length())) {
            n++;
        }
        return n;
    }
}
