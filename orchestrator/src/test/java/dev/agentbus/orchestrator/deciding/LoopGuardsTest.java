package dev.agentbus.orchestrator.deciding;

import dev.agentbus.events.input.SessionInput.PostUserMessage;
import dev.agentbus.events.input.SessionInput.RecordModelResult;
import dev.agentbus.events.input.SessionInput.RecordToolResult;
import dev.agentbus.events.session.LoopGuard;
import dev.agentbus.events.session.SessionEvent;
import dev.agentbus.events.session.SessionEvent.LoopWarned;
import dev.agentbus.events.session.SessionEvent.ModelCallCompleted;
import dev.agentbus.events.session.SessionEvent.ModelCallStarted;
import dev.agentbus.events.session.SessionEvent.SessionCreated;
import dev.agentbus.events.session.SessionEvent.ToolCallCompleted;
import dev.agentbus.events.session.SessionEvent.ToolCallRequested;
import dev.agentbus.events.session.SessionEvent.TurnEnded;
import dev.agentbus.events.session.SessionEvent.UserMessagePosted;
import dev.agentbus.events.session.TokenUsage;
import dev.agentbus.events.session.ToolCallSpec;
import dev.agentbus.events.session.TurnOutcome;
import dev.agentbus.events.state.Message;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static dev.agentbus.orchestrator.deciding.DeciderFixture.given;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The loop guards: each one that sees a loop warns the model once per turn (loop.warned.v1, a notice in the
 * conversation); the next time it sees one in the same turn, the turn ends with LOOP_DETECTED.
 */
class LoopGuardsTest {
    private static final TokenUsage USAGE = new TokenUsage(10, 2, 12);
    private static final String ARGS = "{\"path\":\"a.txt\"}";

    /** A turn in which the model asked for {@code read a.txt} {@code times} times, each answered, and r{n} pending. */
    private static DeciderFixture readsAnswered(int times, boolean ok) {
        DeciderFixture f = given(new SessionCreated("t"), new UserMessagePosted("go"));
        for (int i = 1; i <= times; i++) {
            f.and(new ModelCallStarted("r" + i, i),
                    new ModelCallCompleted("r" + i, "m", "", null, List.of(new ToolCallSpec("c" + i, "read", ARGS)),
                            USAGE, "tool_calls"),
                    new ToolCallRequested("c" + i, "read", ARGS),
                    new ToolCallCompleted("c" + i, ok, ok ? "hi" : null, ok ? null : "no such file", null, false, 1,
                            false));
        }
        return f.and(new ModelCallStarted("r" + (times + 1), times + 1));
    }

    private static RecordModelResult asksRead(String requestId, String id, String args) {
        return new RecordModelResult(requestId, "m", "", null, List.of(new ToolCallSpec(id, "read", args)), USAGE,
                "tool_calls");
    }

    private static <T> List<T> only(Decision d, Class<T> type) {
        return d.events().stream().filter(type::isInstance).map(type::cast).toList();
    }

    @Nested
    class RepeatedCalls {
        @Test
        void the_third_identical_call_in_a_row_is_warned_about_and_still_runs() {
            // Same arguments written differently are the same call.
            Decision d = readsAnswered(2, true).when(asksRead("r3", "c3", "{ \"path\" : \"a.txt\" }"));

            assertThat(only(d, LoopWarned.class)).singleElement().satisfies(w -> {
                assertThat(w.guard()).isEqualTo(LoopGuard.REPEATED_CALL);
                assertThat(w.reason()).contains("read").contains("3 times in a row");
            });
            assertThat(only(d, ToolCallRequested.class)).extracting(ToolCallRequested::callId).containsExactly("c3");
            assertThat(d.state().messages().getLast()).isInstanceOf(Message.Notice.class);
            assertThat(d.state().turn().loopWarnings()).containsExactly(LoopGuard.REPEATED_CALL);
        }

        @Test
        void after_the_warning_the_next_repeat_ends_the_turn_and_the_call_is_answered_not_run() {
            DeciderFixture f = readsAnswered(3, true);
            f.and(new LoopWarned(LoopGuard.REPEATED_CALL, "warned"));

            Decision d = f.when(asksRead("r4", "c4", ARGS));

            assertThat(only(d, ToolCallRequested.class)).isEmpty();
            assertThat(only(d, ToolCallCompleted.class)).singleElement().satisfies(c -> {
                assertThat(c.callId()).isEqualTo("c4");
                assertThat(c.error()).isEqualTo("not run: the loop guard ended the turn");
            });
            assertThat(d.events().getLast()).isInstanceOfSatisfying(TurnEnded.class, t -> {
                assertThat(t.outcome()).isEqualTo(TurnOutcome.LOOP_DETECTED);
                assertThat(t.message()).contains("4 times in a row");
            });
            assertThat(d.effects()).isEmpty();
            assertThat(d.state().lastOutcome()).isEqualTo(TurnOutcome.LOOP_DETECTED);
        }

        @Test
        void different_arguments_break_the_run() {
            Decision d = readsAnswered(2, true).when(asksRead("r3", "c3", "{\"path\":\"b.txt\"}"));

            assertThat(only(d, LoopWarned.class)).isEmpty();
        }

        @Test
        void a_persons_message_starts_the_count_again() {
            // Two reads, a new turn, one more read: not three in a row within what the person last asked.
            DeciderFixture f = readsAnswered(2, true);
            f.and(new TurnEnded(TurnOutcome.COMPLETED, "ok", null), new UserMessagePosted("again"),
                    new ModelCallStarted("r9", 1));
            assertThat(only(f.when(asksRead("r9", "c9", ARGS)), LoopWarned.class)).isEmpty();
        }

        @Test
        void zero_turns_the_guard_off() {
            Decision d = readsAnswered(5, true).withLoopLimits(new LoopLimits(0, 8, 5, 2))
                    .when(asksRead("r6", "c6", ARGS));

            assertThat(only(d, LoopWarned.class)).isEmpty();
            assertThat(only(d, ToolCallRequested.class)).hasSize(1);
        }
    }

    @Nested
    class ToolErrors {
        private final LoopLimits errorsOnly = new LoopLimits(0, 0, 5, 0);

        @Test
        void the_fifth_failure_in_a_row_warns_before_the_model_is_called_again() {
            DeciderFixture f = readsAnswered(4, false).withLoopLimits(errorsOnly);
            f.and(new ModelCallCompleted("r5", "m", "", null, List.of(new ToolCallSpec("c5", "read", ARGS)), USAGE,
                    "tool_calls"), new ToolCallRequested("c5", "read", ARGS));

            Decision d = f.when(new RecordToolResult("c5", false, null, "no such file", null, false, 1, false));

            assertThat(only(d, LoopWarned.class)).singleElement().satisfies(w -> {
                assertThat(w.guard()).isEqualTo(LoopGuard.TOOL_ERRORS);
                assertThat(w.reason()).contains("last 5 tool calls failed");
            });
            assertThat(d.events().getLast()).isInstanceOf(ModelCallStarted.class);
        }

        @Test
        void after_the_warning_the_next_failure_ends_the_turn() {
            DeciderFixture f = readsAnswered(5, false).withLoopLimits(errorsOnly);
            f.and(new LoopWarned(LoopGuard.TOOL_ERRORS, "warned"),
                    new ModelCallCompleted("r6", "m", "", null, List.of(new ToolCallSpec("c6", "read", ARGS)), USAGE,
                            "tool_calls"), new ToolCallRequested("c6", "read", ARGS));

            Decision d = f.when(new RecordToolResult("c6", false, null, "no such file", null, false, 1, false));

            assertThat(d.events().getLast()).isInstanceOfSatisfying(TurnEnded.class,
                    t -> assertThat(t.outcome()).isEqualTo(TurnOutcome.LOOP_DETECTED));
            assertThat(d.effects()).isEmpty();
        }

        @Test
        void a_success_breaks_the_run() {
            DeciderFixture f = readsAnswered(4, false).withLoopLimits(errorsOnly);
            f.and(new ModelCallCompleted("r5", "m", "", null, List.of(new ToolCallSpec("c5", "read", ARGS)), USAGE,
                    "tool_calls"), new ToolCallRequested("c5", "read", ARGS));

            Decision d = f.when(new RecordToolResult("c5", true, "found it", null, null, false, 1, false));

            assertThat(only(d, LoopWarned.class)).isEmpty();
        }
    }

    @Nested
    class NoProgress {
        private final LoopLimits progressOnly = new LoopLimits(0, 8, 0, 0);

        /** A turn of {@code steps} model calls, each an ls with its own arguments that succeeds and changes nothing. */
        private DeciderFixture lookingAround(int steps, SessionEvent... extra) {
            DeciderFixture f = given(new SessionCreated("t"), new UserMessagePosted("go")).withLoopLimits(progressOnly);
            for (int i = 1; i < steps; i++) {
                String args = "{\"path\":\"d" + i + "\"}";
                f.and(new ModelCallStarted("r" + i, i),
                        new ModelCallCompleted("r" + i, "m", "", null, List.of(new ToolCallSpec("c" + i, "ls", args)),
                                USAGE, "tool_calls"),
                        new ToolCallRequested("c" + i, "ls", args),
                        new ToolCallCompleted("c" + i, true, "x", null, null, false, 1, false));
            }
            f.and(new ModelCallStarted("r" + steps, steps));
            f.and(extra);
            return f.and(new ModelCallCompleted("r" + steps, "m", "", null,
                            List.of(new ToolCallSpec("c" + steps, "ls", "{}")), USAGE, "tool_calls"),
                    new ToolCallRequested("c" + steps, "ls", "{}"));
        }

        @Test
        void eight_steps_that_change_nothing_and_say_nothing_new_warn_the_model() {
            Decision d = lookingAround(8).when(new RecordToolResult("c8", true, "x", null, null, false, 1, false));

            assertThat(only(d, LoopWarned.class)).singleElement().satisfies(w -> {
                assertThat(w.guard()).isEqualTo(LoopGuard.NO_PROGRESS);
                assertThat(w.reason()).contains("last 8 steps");
            });
            assertThat(d.events().getLast()).isInstanceOf(ModelCallStarted.class);
        }

        @Test
        void seven_do_not() {
            Decision d = lookingAround(7).when(new RecordToolResult("c7", true, "x", null, null, false, 1, false));

            assertThat(only(d, LoopWarned.class)).isEmpty();
        }

        @Test
        void a_call_that_changed_a_file_is_progress() {
            Decision d = lookingAround(8).when(new RecordToolResult("c8", true, "x", null, "--- a\n+++ b", false, 1,
                    false));

            assertThat(only(d, LoopWarned.class)).isEmpty();
        }

        @Test
        void after_the_warning_a_ninth_step_without_progress_ends_the_turn() {
            Decision d = lookingAround(9, new LoopWarned(LoopGuard.NO_PROGRESS, "warned"))
                    .when(new RecordToolResult("c9", true, "x", null, null, false, 1, false));

            assertThat(d.events().getLast()).isInstanceOfSatisfying(TurnEnded.class, t -> {
                assertThat(t.outcome()).isEqualTo(TurnOutcome.LOOP_DETECTED);
                assertThat(t.message()).contains("last 9 steps");
            });
        }
    }

    @Nested
    class EmptyReplies {
        private static RecordModelResult empty(String requestId) {
            return new RecordModelResult(requestId, "m", "  ", null, List.of(), USAGE, "stop");
        }

        @Test
        void a_first_empty_reply_asks_the_model_again_instead_of_ending_the_turn() {
            Decision d = given(new SessionCreated("t"), new UserMessagePosted("go"), new ModelCallStarted("r1", 1))
                    .when(empty("r1"));

            assertThat(d.events()).hasSize(2);
            assertThat(d.events().getLast()).isEqualTo(new ModelCallStarted("id-1", 2));
        }

        @Test
        void the_second_warns_and_the_third_ends_the_turn() {
            DeciderFixture f = given(new SessionCreated("t"), new UserMessagePosted("go"), new ModelCallStarted("r1", 1),
                    new ModelCallCompleted("r1", "m", "", null, List.of(), USAGE, "stop"),
                    new ModelCallStarted("r2", 2));
            Decision second = f.when(empty("r2"));
            assertThat(only(second, LoopWarned.class)).singleElement()
                    .satisfies(w -> assertThat(w.guard()).isEqualTo(LoopGuard.EMPTY_REPLIES));
            assertThat(second.events().getLast()).isInstanceOf(ModelCallStarted.class);

            List<SessionEvent> after = new ArrayList<>(second.events());
            ModelCallStarted third = (ModelCallStarted) after.getLast();
            Decision end = f.and(after.toArray(new SessionEvent[0])).when(empty(third.requestId()));
            assertThat(end.events().getLast()).isInstanceOfSatisfying(TurnEnded.class,
                    t -> assertThat(t.outcome()).isEqualTo(TurnOutcome.LOOP_DETECTED));
        }

        @Test
        void with_the_guard_off_an_empty_reply_ends_the_turn_as_before() {
            Decision d = given(new SessionCreated("t"), new UserMessagePosted("go"), new ModelCallStarted("r1", 1))
                    .withLoopLimits(LoopLimits.OFF).when(empty("r1"));

            assertThat(d.events().getLast()).isInstanceOfSatisfying(TurnEnded.class,
                    t -> assertThat(t.outcome()).isEqualTo(TurnOutcome.COMPLETED));
        }
    }

    @Test
    void a_warning_is_for_the_turn_a_new_message_does_not_carry_it_over() {
        DeciderFixture f = readsAnswered(3, true);
        f.and(new LoopWarned(LoopGuard.REPEATED_CALL, "warned"), new TurnEnded(TurnOutcome.COMPLETED, "ok", null));

        assertThat(f.when(new PostUserMessage("next")).state().turn().loopWarnings()).isEmpty();
    }
}
