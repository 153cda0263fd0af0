package dev.agentbus.cli.replay;

import dev.agentbus.cli.Events;
import dev.agentbus.cli.Printer;
import dev.agentbus.events.Json;
import dev.agentbus.events.session.EventEnvelope;
import dev.agentbus.events.session.SessionEvent;
import dev.agentbus.events.session.SessionEvent.SessionForked;
import dev.agentbus.events.session.SessionEvent.ToolCallCompleted;
import dev.agentbus.events.session.SessionEvent.ToolCallRequested;
import dev.agentbus.events.session.TurnOutcome;
import dev.agentbus.events.state.SessionFold;
import dev.agentbus.events.state.SessionState;
import dev.agentbus.events.state.SessionStatus;
import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.PrintWriter;
import java.io.StringReader;
import java.io.StringWriter;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

import static dev.agentbus.cli.Events.at;
import static org.assertj.core.api.Assertions.assertThat;

/** The replay's timeline and state, from recorded events only: no gateway, no model, no tools. */
class ReplayerTest {
    private final StringWriter out = new StringWriter();
    private final Printer printer = new Printer(new PrintWriter(out, true), new PrintWriter(new StringWriter(), true),
            false);

    /** A turn (seq 1..10) in which the shell call left a checkpoint, then a rewind a person ran (11..13). */
    private static List<EventEnvelope> logWithCheckpoints() {
        List<EventEnvelope> log = new ArrayList<>(Events.turn(TurnOutcome.COMPLETED, "There are 2 files.", null));
        log.set(6, at(7, new ToolCallCompleted("c1", true, "a.txt\nb.txt\n", null, null, false, 12, false, null,
                "1111111aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", null)));
        log.add(at(11, new ToolCallRequested("u1", "rewind", "{\"checkpoint\":\"1111111\"}", null, true)));
        log.add(at(12, new SessionEvent.ToolCallStarted("u1", "w1")));
        log.add(at(13, new ToolCallCompleted("u1", true, "restored the workspace", null, null, false, 40, false,
                null, "2222222bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb", null)));
        return log;
    }

    @Test
    void the_timeline_shows_every_event_with_the_time_since_the_one_before() {
        Replayer replay = new Replayer(logWithCheckpoints(), printer, ZoneOffset.UTC);

        replay.timeline(replay.lastSeq());

        List<String> lines = out.toString().lines().toList();
        assertThat(lines.getFirst()).startsWith("Session s1").contains("2025-01-01");
        assertThat(lines).anyMatch(l -> l.matches("\\s+1  10:00:01\\.000\\s+session created \"count files\".*"));
        // Events.at spaces the events one second apart
        assertThat(lines).anyMatch(l -> l.matches("\\s+2  10:00:02\\.000\\s+\\+1\\.00s  you ▸ How many files\\?"));
        String text = out.toString();
        assertThat(text)
                .contains("model call 1 started")
                .contains("model answered m · 100 prompt + 10 completion tokens · session total 110 · tool_calls")
                .contains("assistant ▸ Let me look.")
                .contains("asks for shell {\"command\":\"ls\"}")
                .contains("→ shell {\"command\":\"ls\"}")
                .contains("shell started on w1")
                .contains("✓ shell ok  12 ms · checkpoint 1111111aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa")
                .contains("a.txt").contains("b.txt")
                .contains("session total 330")
                .contains("■ turn ended COMPLETED")
                .contains("→ rewind {\"checkpoint\":\"1111111\"}  (run by a person)")
                .contains("✓ rewind ok  40 ms · checkpoint 2222222");
    }

    @Test
    void the_timeline_shows_the_planning_events_and_a_new_plans_steps() {
        List<EventEnvelope> log = List.of(at(1, new SessionEvent.SessionCreated("plan")),
                at(2, new SessionEvent.PlanFirstChanged(true, "u1")),
                at(3, new SessionEvent.PlanCreated(1, "notes", List.of("write", "check"), "c1", true)),
                at(4, new SessionEvent.TodoAdded(1, "write the notes")),
                at(5, new SessionEvent.PlanStepCompleted(1, 1, "wrote notes.txt")),
                at(6, new SessionEvent.PlanAdvanced(1, 2, "nothing to check")),
                at(7, new SessionEvent.TaskStateUpdated(null, 4, List.of("a", "b"), List.of(), null)));
        Replayer replay = new Replayer(log, printer, ZoneOffset.UTC);

        replay.timeline(replay.lastSeq());

        assertThat(out.toString()).contains("plan-first mode on (set by u1)", "plan #1: notes (waits for your approval)",
                "1. write", "2. check", "☐ todo #1: write the notes", "✓ plan step 1 done: wrote notes.txt",
                "↷ plan step 2 skipped: nothing to check", "task state saved, 2 more done, 4 in all");
    }

    @Test
    void the_state_at_a_seq_is_the_fold_of_the_events_up_to_it() {
        List<EventEnvelope> log = logWithCheckpoints();
        Replayer replay = new Replayer(log, printer, ZoneOffset.UTC);

        SessionState atFive = replay.stateAt(5);

        assertThat(atFive).isEqualTo(SessionFold.fold("s1", log.subList(0, 5)));
        assertThat(atFive.status()).isEqualTo(SessionStatus.RUNNING);
        assertThat(replay.stateAt(7).checkpoint()).startsWith("1111111");
        assertThat(replay.stateAt(13).checkpoint()).startsWith("2222222");
    }

    @Test
    void the_state_view_lists_the_checkpoints_and_marks_the_latest() {
        Replayer replay = new Replayer(logWithCheckpoints(), printer, ZoneOffset.UTC);

        replay.state(8);

        String text = out.toString();
        assertThat(text).contains("State at seq 8 of 13").contains("status   RUNNING")
                .contains("you ▸ How many files?")
                .contains("Checkpoints")
                .contains("1111111aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa  after shell {\"command\":\"ls\"} ← latest")
                .doesNotContain("2222222");
    }

    @Test
    void stepping_shows_one_event_per_line_read_and_the_state_where_it_stops() throws Exception {
        Replayer replay = new Replayer(logWithCheckpoints(), printer, ZoneOffset.UTC);

        // from seq 3: 4 is shown; "s" shows the state at 4, Enter shows 5, "q" stops there
        replay.step(3, new BufferedReader(new StringReader("s\n\nq\n")), false);

        String text = out.toString();
        assertThat(text).contains("model call 1 started"); // seq 3, shown at once
        assertThat(text.indexOf("model answered")).isPositive();
        assertThat(text).contains("State at seq 4 of 13").contains("State at seq 5 of 13");
        assertThat(text).doesNotContain("started on w1"); // seq 6 was never reached
        assertThat(text).doesNotContain("[Enter]"); // no prompt without a person typing
    }

    @Test
    void stepping_stops_at_the_end_of_the_input_like_at_q() throws Exception {
        Replayer replay = new Replayer(logWithCheckpoints(), printer, ZoneOffset.UTC);

        replay.step(0, new BufferedReader(new StringReader("\n")), true);

        String text = out.toString();
        assertThat(text).contains("session created").contains("you ▸ How many files?")
                .doesNotContain("model call 1 started")
                .contains("[Enter] next · s state · q quit")
                .contains("State at seq 2 of 13");
    }

    @Test
    void a_fork_shows_where_it_came_from_and_its_checkpoint() {
        SessionState source = SessionFold.fold("s0", Events.turn(TurnOutcome.COMPLETED, "done", null));
        EventEnvelope forked = at(1, new SessionForked("s0", 7, "3333333ccccccccccccccccccccccccccccccccc",
                "my fork", source));
        Replayer replay = new Replayer(List.of(forked), printer, ZoneOffset.UTC);

        replay.timeline(1);
        replay.state(1);

        assertThat(out.toString()).contains("⑂ forked from s0 at seq 7 \"my fork\"")
                .contains("checkpoint 3333333ccccccccccccccccccccccccccccccccc")
                .contains("carries 4 messages, 1 tool calls, 330 tokens")
                .contains("forked from s0 at seq 7")
                .contains("status   IDLE");
        assertThat(replay.stateAt(1).messages()).hasSize(source.messages().size());
    }

    @Test
    void an_event_type_this_cli_does_not_know_is_shown_not_fatal() {
        EventEnvelope unknown = at(2, new SessionEvent.UnknownEvent("approval.granted.v9",
                Json.mapper().createObjectNode().put("by", "ada")));
        Replayer replay = new Replayer(List.of(Events.turn(TurnOutcome.COMPLETED, "x", null).getFirst(), unknown),
                printer, ZoneOffset.UTC);

        replay.timeline(2);

        assertThat(out.toString()).contains("? approval.granted.v9").contains("\"by\":\"ada\"");
        assertThat(replay.stateAt(2).lastSeq()).isEqualTo(2);
    }

    @Test
    void deltas_read_like_a_person_would_write_them() {
        assertThat(Timeline.delta(Duration.ofMillis(850))).isEqualTo("850ms");
        assertThat(Timeline.delta(Duration.ofMillis(2310))).isEqualTo("2.31s");
        assertThat(Timeline.delta(Duration.ofSeconds(184))).isEqualTo("3m04s");
        assertThat(Timeline.delta(Duration.ofMinutes(123))).isEqualTo("2h03m");
        assertThat(Timeline.delta(Duration.ofHours(101))).isEqualTo("4d05h");
        assertThat(Timeline.delta(Duration.between(Instant.EPOCH.plusSeconds(1), Instant.EPOCH))).isEqualTo("0ms");
    }

    @Test
    void the_timeline_shows_renames_whispers_woken_waits_and_the_loop_guard() {
        List<EventEnvelope> log = List.of(
                at(1, new SessionEvent.SessionCreated("draft")),
                at(2, new SessionEvent.SessionRenamed("Release notes", "bob")),
                at(3, new SessionEvent.UserMessagePosted("write them")),
                at(4, new SessionEvent.WhisperQueued("w1", "mention the fix", "bob")),
                at(5, new SessionEvent.WhisperDelivered("w1")),
                at(6, new SessionEvent.WaitScheduled("wt", Instant.parse("2025-01-01T12:00:00Z"), "later", null)),
                at(7, new SessionEvent.WaitEnded("wt", true)),
                at(8, new SessionEvent.LoopWarned(dev.agentbus.events.session.LoopGuard.REPEATED_CALL,
                        "Loop guard: you called ls 3 times")),
                at(9, new SessionEvent.TurnEnded(TurnOutcome.LOOP_DETECTED, null, "Loop guard: again")));
        Replayer replay = new Replayer(log, printer, ZoneOffset.UTC);

        replay.timeline(replay.lastSeq());

        assertThat(out.toString()).contains("renamed Release notes by bob")
                .contains("↳ whisper mention the fix from bob")
                .contains("↳ whisper delivered to the next model call")
                .contains("wait ended early by a message")
                .contains("⚠ loop guard repeated_call Loop guard: you called ls 3 times")
                .contains("turn ended LOOP_DETECTED: Loop guard: again");
        assertThat(replay.stateAt(2).title()).isEqualTo("Release notes");
    }
}
