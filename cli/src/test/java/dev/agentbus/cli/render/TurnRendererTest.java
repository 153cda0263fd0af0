package dev.agentbus.cli.render;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentbus.cli.Printer;
import dev.agentbus.events.Json;
import dev.agentbus.events.session.SessionEvent;
import dev.agentbus.events.session.ApprovalDecision;
import dev.agentbus.events.session.SessionEvent.ModelCallCompleted;
import dev.agentbus.events.session.SessionEvent.ModelCallStarted;
import dev.agentbus.events.session.SessionEvent.TurnEnded;
import dev.agentbus.events.session.TokenUsage;
import dev.agentbus.events.session.TurnOutcome;
import dev.agentbus.events.tools.Risk;
import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Instant;
import java.util.List;

import static dev.agentbus.cli.Events.at;
import static org.assertj.core.api.Assertions.assertThat;

/** How one turn is shown: streaming vs. the non-streaming fallback, reasoning, tool results, waits. */
class TurnRendererTest {
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();
    private final Printer printer = new Printer(new PrintWriter(out), new PrintWriter(err), false);
    private long seq = 1;

    private TurnRenderer renderer(boolean quiet, boolean reasoning) {
        TurnRenderer r = new TurnRenderer(printer, quiet, reasoning);
        r.expectInput("in-1");
        r.onEvent(at(seq++, new SessionEvent.UserMessagePosted("hi")));
        return r;
    }

    private Integer event(TurnRenderer r, SessionEvent e) {
        return r.onEvent(at(seq++, e));
    }

    private static JsonNode delta(String kind, String ref, String text) {
        return Json.mapper().createObjectNode().put("kind", kind).put("ref", ref).put("text", text);
    }

    private static ModelCallCompleted completed(String ref, String content, String reasoning) {
        return new ModelCallCompleted(ref, "m", content, reasoning, List.of(), new TokenUsage(1, 2, 3), "stop");
    }

    @Test
    void content_that_was_not_streamed_is_printed_from_the_completed_call() {
        TurnRenderer r = renderer(false, true);
        event(r, completed("r1", "Hello there.", null));
        assertThat(event(r, new TurnEnded(TurnOutcome.COMPLETED, "Hello there.", null))).isZero();
        assertThat(out.toString()).startsWith("Hello there.\n").containsOnlyOnce("Hello there.");
    }

    @Test
    void streamed_content_is_not_printed_again_and_late_deltas_are_dropped() {
        TurnRenderer r = renderer(false, true);
        event(r, new ModelCallStarted("r1", 1));
        r.onDelta(delta("TOKEN", "r1", "Hel"));
        r.onDelta(delta("TOKEN", "r1", "lo."));
        event(r, completed("r1", "Hello.", null));
        r.onDelta(delta("TOKEN", "r1", "lo.")); // arrived after the event that completes it
        event(r, new TurnEnded(TurnOutcome.COMPLETED, "Hello.", null));
        assertThat(out.toString()).startsWith("Hello.\n").containsOnlyOnce("Hello").containsOnlyOnce("lo.");
    }

    @Test
    void an_answer_different_from_what_was_streamed_is_printed() {
        TurnRenderer r = renderer(false, true);
        event(r, new ModelCallStarted("r1", 1));
        r.onDelta(delta("TOKEN", "r1", "Thinking out loud"));
        event(r, completed("r1", "Thinking out loud", null));
        event(r, new TurnEnded(TurnOutcome.COMPLETED, "The answer.", null));
        assertThat(out.toString()).contains("Thinking out loud\nThe answer.\n");
    }

    @Test
    void reasoning_is_marked_and_can_be_turned_off() {
        TurnRenderer r = renderer(false, true);
        event(r, new ModelCallStarted("r1", 1));
        r.onDelta(delta("REASONING", "r1", "first\nsec"));
        r.onDelta(delta("REASONING", "r1", "ond"));
        r.onDelta(delta("TOKEN", "r1", "Answer"));
        event(r, completed("r1", "Answer", "first\nsecond"));
        assertThat(out.toString()).startsWith("┊ first\n┊ second\nAnswer\n");

        StringWriter quietOut = new StringWriter();
        TurnRenderer hidden = new TurnRenderer(new Printer(new PrintWriter(quietOut), new PrintWriter(err), false),
                false, false);
        hidden.onDelta(delta("REASONING", "r1", "secret"));
        hidden.onEvent(at(2, completed("r1", "Answer", "secret")));
        assertThat(quietOut.toString()).isEqualTo("Answer\n");
    }

    @Test
    void words_that_arrive_before_their_call_is_shown_as_started_wait_for_the_events_before_it() {
        TurnRenderer r = renderer(false, true);
        event(r, new ModelCallStarted("r1", 1));
        event(r, new SessionEvent.ApprovalRequested("c1", "shell", "{}", Risk.HIGH, "normal mode", null));
        // Deltas and events travel on different topics: the next call's first words overtake the decision.
        r.onDelta(delta("TOKEN", "r2", "The plan"));
        event(r, new SessionEvent.ApprovalDecided("c1", ApprovalDecision.APPROVED, null, "alice"));
        event(r, new ModelCallStarted("r2", 2));
        r.onDelta(delta("TOKEN", "r2", " is done."));
        event(r, completed("r2", "The plan is done.", null));

        String shown = out.toString();
        assertThat(shown).contains("The plan is done.\n").containsOnlyOnce("The plan");
        assertThat(shown.indexOf("✓ approved")).isLessThan(shown.indexOf("The plan"));
    }

    @Test
    void words_of_a_call_never_shown_as_started_are_printed_whole_when_it_completes() {
        TurnRenderer r = renderer(false, true);
        r.onDelta(delta("TOKEN", "r1", "Hel")); // the stream joined after model_call.started
        event(r, completed("r1", "Hello.", null));
        assertThat(out.toString()).startsWith("Hello.\n").containsOnlyOnce("Hel");
    }

    @Test
    void reasoning_that_was_not_streamed_is_printed_from_the_completed_call() {
        TurnRenderer r = renderer(false, true);
        event(r, completed("r1", "Answer", "because"));
        assertThat(out.toString()).isEqualTo("┊ because\nAnswer\n");
    }

    @Test
    void failed_and_interrupted_tool_calls_are_marked() {
        TurnRenderer r = renderer(false, true);
        event(r, new SessionEvent.ToolCallRequested("c1", "read_file", "{\"path\":\"x\"}"));
        event(r, new SessionEvent.ToolCallCompleted("c1", false, "", "no such file: x", null, false, 1, false));
        event(r, new SessionEvent.ToolCallRequested("c2", "shell", "{\"command\":\"make\"}"));
        event(r, new SessionEvent.ToolCallCompleted("c2", false, null, null, null, false, 1, true));
        assertThat(out.toString()).isEqualTo("""
                → read_file {"path":"x"}
                  ✗ no such file: x
                → shell {"command":"make"}
                  ✗ interrupted: the worker stopped during the call and did not run it again
                """);
    }

    @Test
    void long_output_is_summarised_to_its_first_lines() {
        TurnRenderer r = renderer(false, true);
        event(r, new SessionEvent.ToolCallRequested("c1", "shell", "{}"));
        event(r, new SessionEvent.ToolCallCompleted("c1", true, "1\n2\n3\n4\n5\n6\n7\n", null, null, true, 1, false));
        assertThat(out.toString()).contains("  ✓ 1\n    2\n    3\n    4\n    5\n    … 2 more lines\n")
                .contains("(output truncated)");
    }

    @Test
    void a_wait_shows_its_reason() {
        TurnRenderer r = renderer(false, true);
        event(r, new SessionEvent.WaitScheduled("w1", Instant.parse("2030-01-01T00:00:00Z"), "the build", null));
        assertThat(out.toString()).startsWith("⏸ waiting until ").contains(" : the build");
    }

    @Test
    void a_turn_end_before_our_message_is_not_ours() {
        TurnRenderer r = new TurnRenderer(printer, false, true);
        r.expectInput("in-2");
        assertThat(r.onEvent(at(1, new TurnEnded(TurnOutcome.ERROR, null, "old")))).isNull();
        assertThat(r.onEvent(at(2, new SessionEvent.InputRejected("other", "cancel_turn.v1", "nothing to cancel"))))
                .isNull();
        assertThat(err.toString()).contains("was rejected: nothing to cancel");
    }

    @Test
    void a_model_call_failure_is_shown() {
        TurnRenderer r = renderer(false, true);
        event(r, new SessionEvent.ModelCallFailed("r1", "HTTP 500 from the model server"));
        assertThat(out.toString()).contains("✗ model call failed: HTTP 500 from the model server");
    }

    @Test
    void unknown_events_are_skipped() {
        TurnRenderer r = renderer(false, true);
        JsonNode unknown = Json.mapper().createObjectNode().put("type", "future.thing.v9").put("id", "x")
                .put("sessionId", "s1").put("seq", 9).put("time", "2025-01-01T00:00:00Z");
        assertThat(r.onEvent(unknown)).isNull();
        assertThat(out.toString()).isEmpty();
    }

    @Test
    void a_call_awaiting_approval_says_how_to_approve_it_even_when_quiet() {
        TurnRenderer r = renderer(true, false);
        assertThat(event(r, new SessionEvent.ApprovalRequested("call_1", "shell", "{\"command\":\"rm -rf build\"}",
                dev.agentbus.events.tools.Risk.HIGH, "normal mode: shell runs commands", java.time.Instant.EPOCH)))
                .isNull();
        assertThat(out.toString()).contains("⏸ approval needed: shell").contains("rm -rf build")
                .contains("agentbus approve " + dev.agentbus.cli.Events.SESSION + " call_1");
    }

    @Test
    void a_decision_is_shown_with_who_decided_and_the_note() {
        TurnRenderer r = renderer(false, false);
        event(r, new SessionEvent.ApprovalRequested("call_1", "shell", "{}", dev.agentbus.events.tools.Risk.HIGH,
                "r", java.time.Instant.EPOCH));
        event(r, new SessionEvent.ApprovalDecided("call_1", dev.agentbus.events.session.ApprovalDecision.DENIED,
                "not now", "ada"));
        assertThat(out.toString()).contains("✗ denied: shell by ada : not now");
    }

    @Test
    void the_calls_awaiting_approval_are_tracked_until_decided_and_chat_names_its_own_commands() {
        TurnRenderer r = renderer(false, false);
        r.useChatHints();
        event(r, new SessionEvent.ApprovalRequested("call_1", "shell", "{}", dev.agentbus.events.tools.Risk.HIGH,
                "manual mode", java.time.Instant.EPOCH));
        event(r, new SessionEvent.ApprovalRequested("call_2", "ls", "{}", dev.agentbus.events.tools.Risk.LOW,
                "manual mode", java.time.Instant.EPOCH));
        assertThat(r.pendingApprovals()).containsExactly("call_1", "call_2");
        assertThat(out.toString()).contains("— /approve, /approve always or /deny [NOTE]  (call call_1; manual mode)")
                .doesNotContain("agentbus approve");

        event(r, new SessionEvent.ApprovalDecided("call_1", dev.agentbus.events.session.ApprovalDecision.APPROVED,
                null, "ada"));
        assertThat(r.pendingApprovals()).containsExactly("call_2");
        event(r, new TurnEnded(TurnOutcome.CANCELLED, null, "cancelled by the user"));
        assertThat(r.pendingApprovals()).isEmpty();
    }

    @Test
    void a_continued_turn_knows_the_calls_already_waiting_and_their_tools_and_its_end_is_ours() {
        TurnRenderer r = new TurnRenderer(printer, false, false);
        r.continueTurn(List.of("call_2"), java.util.Map.of("call_1", "shell", "call_2", "ls"));
        assertThat(r.pendingApprovals()).containsExactly("call_2");

        event(r, new SessionEvent.ApprovalDecided("call_1", dev.agentbus.events.session.ApprovalDecision.ALWAYS,
                null, "ada"));
        assertThat(out.toString()).contains("✓ approved: shell (always, for this session) by ada");
        assertThat(event(r, new TurnEnded(TurnOutcome.COMPLETED, "Done.", null))).isZero();
    }

    @Test
    void a_loop_guard_warning_shows_even_when_quiet_and_its_ending_exits_2() {
        TurnRenderer r = renderer(true, false);
        event(r, new SessionEvent.LoopWarned(dev.agentbus.events.session.LoopGuard.TOOL_ERRORS,
                "Loop guard: your last 5 tool calls failed."));
        assertThat(err.toString()).contains("loop guard (tool_errors): Loop guard: your last 5 tool calls failed.");
    }

    @Test
    void whispers_a_rename_and_a_wait_ended_by_a_message_are_shown() {
        TurnRenderer r = renderer(false, true);
        event(r, new SessionEvent.SessionRenamed("New title", "bob"));
        event(r, new SessionEvent.WhisperQueued("w1", "use tabs", "bob"));
        event(r, new SessionEvent.WhisperDelivered("w1"));
        event(r, new SessionEvent.WaitEnded("wt", true));
        assertThat(out.toString()).contains("renamed: New title (by bob)").contains("↳ whisper queued: use tabs")
                .contains("↳ whisper delivered to the model").contains("▶ resumed early by a message");
    }
}
