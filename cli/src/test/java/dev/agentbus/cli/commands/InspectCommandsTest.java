package dev.agentbus.cli.commands;

import dev.agentbus.cli.Events;
import dev.agentbus.cli.FakeGateway;
import dev.agentbus.cli.OnFakeGateway;
import dev.agentbus.cli.FakeGateway.SseScript;
import dev.agentbus.cli.TestCli;
import dev.agentbus.events.Json;
import dev.agentbus.events.codec.EventCodec;
import dev.agentbus.events.session.EventEnvelope;
import dev.agentbus.events.session.SessionEvent;
import dev.agentbus.events.session.TokenUsage;
import dev.agentbus.events.session.ToolCallSpec;
import dev.agentbus.events.session.TurnOutcome;
import dev.agentbus.events.state.SessionFold;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static dev.agentbus.cli.Events.at;
import static org.assertj.core.api.Assertions.assertThat;

/** sessions, show, events and cancel: the read side of the CLI. */
class InspectCommandsTest extends OnFakeGateway {

    @Test
    void sessions_prints_a_table() {
        gateway.json("GET", "/api/v1/sessions", 200, """
                [{"id":"s1","title":"count files","status":"IDLE","createdAt":"2025-01-01T10:00:00Z",
                  "updatedAt":"2025-01-01T10:05:00Z","lastSeq":10,
                  "usage":{"promptTokens":300,"completionTokens":30,"totalTokens":330},"lastOutcome":"COMPLETED"},
                 {"id":"s2-longer-id","title":"a very long title that goes on and on and on and on and on","status":"RUNNING",
                  "createdAt":"2025-01-02T10:00:00Z","updatedAt":"2025-01-02T10:00:01Z","lastSeq":2,
                  "usage":{"promptTokens":0,"completionTokens":0,"totalTokens":0}}]""");

        assertThat(cli.run("sessions")).isZero();

        List<String> lines = cli.out().lines().toList();
        assertThat(lines).hasSize(3);
        assertThat(lines.get(0)).startsWith("ID").contains("STATUS", "TITLE", "UPDATED", "TOKENS");
        assertThat(lines.get(1)).startsWith("s1 ").contains("IDLE (COMPLETED)", "count files").endsWith("330");
        assertThat(lines.get(2)).startsWith("s2-longer-id").contains("RUNNING", "a very long title", "…").endsWith(" 0");
        // columns line up: every row's STATUS starts where the header's does
        int statusColumn = lines.get(0).indexOf("STATUS");
        assertThat(lines.get(1).indexOf("IDLE")).isEqualTo(statusColumn);
        assertThat(lines.get(2).indexOf("RUNNING")).isEqualTo(statusColumn);
    }

    @Test
    void sessions_says_when_there_are_none() {
        gateway.json("GET", "/api/v1/sessions", 200, "[]");
        assertThat(cli.run("sessions")).isZero();
        assertThat(cli.out()).contains("no sessions yet");
    }

    @Test
    void show_renders_the_folded_state() throws Exception {
        List<EventEnvelope> log = new ArrayList<>(Events.turn(TurnOutcome.COMPLETED, "There are 2 files.", null));
        // swap in a model call that carries reasoning, and a failing second tool call
        log.set(3, at(4, new SessionEvent.ModelCallCompleted("r1", "qwen", "Let me look.", "I should list them.",
                List.of(new ToolCallSpec("c1", "shell", "{\"command\":\"ls\"}"),
                        new ToolCallSpec("c2", "read_file", "{\"path\":\"x\"}")),
                new TokenUsage(100, 10, 110), "tool_calls")));
        log.add(6, at(7, new SessionEvent.ToolCallCompleted("c2", false, "", "no such file: x", null, false, 3, false)));
        for (int i = 7; i < log.size(); i++) {
            EventEnvelope e = log.get(i);
            log.set(i, at(i + 1, e.event()));
        }
        String state = Json.mapper().writeValueAsString(SessionFold.fold("s1", log));
        gateway.json("GET", "/api/v1/sessions/s1", 200, state);

        assertThat(cli.run("show", "s1")).isZero();

        String out = cli.out();
        assertThat(out).contains("count files", "s1")
                .contains("status   IDLE · last turn COMPLETED")
                .contains("you ▸ How many files?")
                .contains("┊ reasoning: I should list them.")
                .contains("assistant ▸ Let me look.")
                .contains("→ shell {\"command\":\"ls\"}")
                .contains("tool shell ▸ a.txt").contains("    b.txt")
                .contains("assistant ▸ There are 2 files.")
                .contains("✓ ok  shell").contains("✗ failed  read_file").contains("no such file: x")
                .contains("tokens   300 prompt · 30 completion · 330 total");
        assertThat(out.indexOf("you ▸")).isLessThan(out.indexOf("assistant ▸ Let me look."));
    }

    @Test
    void show_tells_message_kinds_by_their_kind_field_and_else_by_shape() {
        gateway.json("GET", "/api/v1/sessions/s1", 200, """
                {"sessionId":"s1","title":"t","status":"WAITING","lastSeq":9,
                 "pendingWait":{"waitId":"w1","until":"2030-01-01T00:00:00Z","reason":"the build"},
                 "messages":[
                   {"kind":"user","seq":2,"text":"wait for the build"},
                   {"kind":"notice","seq":5,"text":"The time has come."},
                   {"seq":6,"text":"old gateway, user message"},
                   {"seq":7,"toolCalls":[{"id":"c1","name":"wait","arguments":"{}"}]},
                   {"kind":"tool","seq":8,"callId":"c1","name":"wait","content":""}],
                 "usage":{"promptTokens":1,"completionTokens":2,"totalTokens":3}}""");

        assertThat(cli.run("show", "s1")).isZero();
        assertThat(cli.out()).contains("you ▸ wait for the build", "notice ▸ The time has come.",
                "you ▸ old gateway, user message", "→ wait {}", "tool wait ▸ (no output)",
                "waiting  until ", " : the build", "status   WAITING");
    }

    @Test
    void show_lists_the_plan_with_its_evidence_the_todos_and_the_task_state() throws Exception {
        List<EventEnvelope> log = List.of(at(1, new SessionEvent.SessionCreated("resize")),
                at(2, new SessionEvent.PlanFirstChanged(true, "u1")),
                at(3, new SessionEvent.PlanCreated(1, "resize", List.of("list", "resize", "check"), "c1", false)),
                at(4, new SessionEvent.PlanStepCompleted(1, 1, "ls: 12 files")),
                at(5, new SessionEvent.TodoAdded(1, "list the images")),
                at(6, new SessionEvent.TodoUpdated(1, dev.agentbus.events.planning.TodoStatus.DONE, null, null)),
                at(7, new SessionEvent.TodoAdded(2, "resize them")),
                at(8, new SessionEvent.TaskStateUpdated("resize images", 12, List.of("a.png"), List.of(), "slow")));
        gateway.json("GET", "/api/v1/sessions/s1", 200,
                dev.agentbus.api.ApiJson.write(dev.agentbus.api.SessionDetails.of(SessionFold.fold("s1", log))));

        assertThat(cli.run("show", "s1")).isZero();

        assertThat(cli.out()).contains("plan     plan-first: tools wait for a plan you approved")
                .contains("Plan #1 resize · active")
                .contains("  ✓ 1. list — ls: 12 files", "  → 2. resize", "    3. check")
                .contains("Todos", "  ☑ #1 list the images · done", "  ☐ #2 resize them · pending")
                .contains("Task state resize images · 1 of 12 done · 0 failed · slow");
    }

    @Test
    void show_says_the_sessions_own_model_and_who_chose_it() throws Exception {
        List<EventEnvelope> log = List.of(at(1, new SessionEvent.SessionCreated("models")),
                at(2, new SessionEvent.ModelSettingsChanged("big-model",
                        new dev.agentbus.events.models.Sampling(0.7, null, 2048), "ada")));
        gateway.json("GET", "/api/v1/sessions/s1", 200,
                dev.agentbus.api.ApiJson.write(dev.agentbus.api.SessionDetails.of(SessionFold.fold("s1", log))));

        assertThat(cli.run("show", "s1")).isZero();

        assertThat(cli.out()).contains("model    big-model, temperature 0.7, max 2048 tokens · chosen by ada");
    }

    @Test
    void show_json_prints_the_state_as_sent() {
        gateway.json("GET", "/api/v1/sessions/s1", 200, "{\"sessionId\":\"s1\",\"status\":\"IDLE\"}");
        assertThat(cli.run("show", "--json", "s1")).isZero();
        assertThat(cli.out()).isEqualTo("{\"sessionId\":\"s1\",\"status\":\"IDLE\"}\n");
    }

    @Test
    void show_of_an_unknown_session_exits_1() {
        assertThat(cli.run("show", "nope")).isEqualTo(1);
        assertThat(cli.err()).contains("no session nope");
        assertThat(cli.out()).isEmpty();
    }

    @Test
    void events_prints_the_log_as_jsonl() {
        List<EventEnvelope> log = Events.turn(TurnOutcome.COMPLETED, "done", null);
        gateway.ndjson("/api/v1/sessions/s1/log", FakeGateway.ndjson(log));

        assertThat(cli.run("events", "s1")).isZero();

        List<String> lines = cli.out().lines().toList();
        assertThat(lines).hasSize(10);
        assertThat(lines.get(0)).isEqualTo(EventCodec.eventToJson(log.get(0)));
        assertThat(lines).allSatisfy(l -> assertThat(EventCodec.decodeEvent(l).sessionId()).isEqualTo("s1"));
    }

    @Test
    void events_follow_continues_with_the_stream_until_ctrl_c() throws Exception {
        List<EventEnvelope> log = Events.turn(TurnOutcome.COMPLETED, "done", null);
        gateway.ndjson("/api/v1/sessions/s1/log", FakeGateway.ndjson(log.subList(0, 2)))
                // replays seq 2 (already in the log output) and carries a delta: neither may be printed
                .sse("/api/v1/sessions/s1/events", SseScript.thenHold(Events.sse(log, 2, 4)));

        CompletableFuture<Integer> run = cli.runAsync("events", "s1", "--follow");
        TestCli.await(() -> cli.out().lines().count() >= 4, "four events");
        cli.interrupts.fire();

        assertThat(run.get(10, TimeUnit.SECONDS)).isEqualTo(130);
        List<String> lines = cli.out().lines().toList();
        assertThat(lines).hasSize(4);
        assertThat(lines).extracting(l -> EventCodec.decodeEvent(l).seq()).containsExactly(1L, 2L, 3L, 4L);
        assertThat(gateway.requests("GET", "/api/v1/sessions/s1/events").get(0).query()).isEqualTo("after=2");
    }

    @Test
    void cancel_posts_a_cancel() {
        gateway.json("POST", "/api/v1/sessions/s1/cancel", 202, "");
        assertThat(cli.run("cancel", "s1")).isZero();
        assertThat(gateway.requests("POST", "/api/v1/sessions/s1/cancel")).hasSize(1);
        assertThat(cli.out()).contains("cancel requested for session s1");
    }
}
