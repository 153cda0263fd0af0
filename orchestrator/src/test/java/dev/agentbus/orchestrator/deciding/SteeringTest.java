package dev.agentbus.orchestrator.deciding;

import dev.agentbus.events.input.SessionInput.CancelTurn;
import dev.agentbus.events.input.SessionInput.PostUserMessage;
import dev.agentbus.events.input.SessionInput.PostWhisper;
import dev.agentbus.events.input.SessionInput.RecordModelResult;
import dev.agentbus.events.input.SessionInput.RecordToolResult;
import dev.agentbus.events.input.SessionInput.RenameSession;
import dev.agentbus.events.input.SessionInput.WakeUp;
import dev.agentbus.events.session.ApprovalDecision;
import dev.agentbus.events.session.PermissionMode;
import dev.agentbus.events.session.SessionEvent.ApprovalDecided;
import dev.agentbus.events.session.SessionEvent.ApprovalRequested;
import dev.agentbus.events.session.SessionEvent.InputRejected;
import dev.agentbus.events.session.SessionEvent.ModelCallCompleted;
import dev.agentbus.events.session.SessionEvent.ModelCallStarted;
import dev.agentbus.events.session.SessionEvent.SessionCreated;
import dev.agentbus.events.session.SessionEvent.SessionRenamed;
import dev.agentbus.events.session.SessionEvent.ToolCallCompleted;
import dev.agentbus.events.session.SessionEvent.ToolCallRequested;
import dev.agentbus.events.session.SessionEvent.TurnEnded;
import dev.agentbus.events.session.SessionEvent.UserMessagePosted;
import dev.agentbus.events.session.SessionEvent.WaitEnded;
import dev.agentbus.events.session.SessionEvent.WaitScheduled;
import dev.agentbus.events.session.SessionEvent.WhisperDelivered;
import dev.agentbus.events.session.SessionEvent.WhisperQueued;
import dev.agentbus.events.session.TokenUsage;
import dev.agentbus.events.session.ToolCallSpec;
import dev.agentbus.events.session.TurnOutcome;
import dev.agentbus.events.state.Message;
import dev.agentbus.events.state.QueuedWhisper;
import dev.agentbus.events.state.SessionStatus;
import dev.agentbus.events.tools.Risk;
import dev.agentbus.events.session.SessionEvent.MemoryAttached;
import dev.agentbus.orchestrator.deciding.remembering.OwnerOnlyMemory;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

import java.util.List;

import static dev.agentbus.orchestrator.deciding.DeciderFixture.NOW;
import static dev.agentbus.orchestrator.deciding.DeciderFixture.USER;
import static dev.agentbus.orchestrator.deciding.DeciderFixture.given;
import static org.assertj.core.api.Assertions.assertThat;

/** Steering a turn: renaming the session, whispers, and a message that wakes a waiting turn. */
class SteeringTest {
    private static final TokenUsage USAGE = new TokenUsage(10, 2, 12);
    private static final String SHELL_ARGS = "{\"command\":\"ls\"}";

    private static DeciderFixture turnAwaiting(String requestId) {
        return given(new SessionCreated("t"), new UserMessagePosted("do it"), new ModelCallStarted(requestId, 1));
    }

    private static RecordModelResult answer(String requestId, String content) {
        return new RecordModelResult(requestId, "m", content, null, List.of(), USAGE, "stop");
    }

    private static ModelCallCompleted asked(String requestId, ToolCallSpec... calls) {
        return new ModelCallCompleted(requestId, "m", "", null, List.of(calls), USAGE, "tool_calls");
    }

    @Nested
    class Renaming {
        @Test
        void a_rename_is_recorded_with_who_renamed_it_and_sets_the_title_even_during_a_turn() {
            Decision d = turnAwaiting("r1").whenBy("bob", new RenameSession("  Quarterly report  "));

            assertThat(d.events()).containsExactly(new SessionRenamed("Quarterly report", "bob"));
            assertThat(d.state().title()).isEqualTo("Quarterly report");
            assertThat(d.state().status()).isEqualTo(SessionStatus.RUNNING);
        }

        @Test
        void a_blank_title_is_rejected() {
            Decision d = given(new SessionCreated("t")).when(new RenameSession(" "));

            assertThat(d.events()).singleElement().isInstanceOfSatisfying(InputRejected.class,
                    r -> assertThat(r.reason()).isEqualTo("the title is empty"));
            assertThat(d.state().title()).isEqualTo("t");
        }
    }

    @Nested
    class Whispers {
        @Test
        void a_whisper_to_a_running_turn_is_queued_and_the_turn_goes_on_untouched() {
            Decision d = turnAwaiting("r1").whenBy("bob", new PostWhisper("use the staging database"));

            // bob is a group member, not the owner: the turn goes on without the owner's memory (OwnerOnlyMemory).
            assertThat(d.events()).containsExactly(new WhisperQueued("id-1", "use the staging database", "bob"),
                    new MemoryAttached("", OwnerOnlyMemory.WITHHELD));
            assertThat(d.effects()).isEmpty();
            assertThat(d.state().queuedWhispers())
                    .containsExactly(new QueuedWhisper("id-1", "use the staging database", "bob"));
            assertThat(d.state().turn().pendingRequestId()).isEqualTo("r1");
        }

        @Test
        void a_whisper_to_an_idle_session_is_rejected_with_what_to_do_instead() {
            Decision d = given(new SessionCreated("t")).when(new PostWhisper("hello?"));

            assertThat(d.events()).singleElement().isInstanceOfSatisfying(InputRejected.class,
                    r -> assertThat(r.reason()).isEqualTo("no turn is under way to whisper to; send a message instead"));
        }

        @Test
        void an_empty_whisper_is_rejected() {
            Decision d = turnAwaiting("r1").when(new PostWhisper(""));

            assertThat(d.events()).singleElement().isInstanceOf(InputRejected.class);
        }

        @Test
        void queued_whispers_are_delivered_in_order_just_before_the_next_model_call_starts() {
            Decision d = turnAwaiting("r1")
                    .and(new WhisperQueued("w1", "first", USER), new WhisperQueued("w2", "second", USER),
                            asked("r1", new ToolCallSpec("c1", "ls", "{}")), new ToolCallRequested("c1", "ls", "{}"))
                    .when(new RecordToolResult("c1", true, "a.txt", null, null, false, 3, false));

            assertThat(d.events()).containsExactly(
                    new ToolCallCompleted("c1", true, "a.txt", null, null, false, 3, false),
                    new WhisperDelivered("w1"), new WhisperDelivered("w2"), new ModelCallStarted("id-1", 2));
            assertThat(d.state().queuedWhispers()).isEmpty();
            // The prompt is built from the messages: the whispers are there, after the tool result, as notices.
            assertThat(d.state().messages().subList(d.state().messages().size() - 2, d.state().messages().size()))
                    .extracting(m -> ((Message.Notice) m).text())
                    .containsExactly("The user sent this note while you were working: first",
                            "The user sent this note while you were working: second");
        }

        @Test
        void a_final_answer_while_a_whisper_is_queued_does_not_end_the_turn_the_model_is_asked_again_with_it() {
            Decision d = turnAwaiting("r1").and(new WhisperQueued("w1", "also update the README", USER))
                    .when(answer("r1", "Done."));

            assertThat(d.events()).hasSize(3);
            assertThat(d.events().get(1)).isEqualTo(new WhisperDelivered("w1"));
            assertThat(d.events().get(2)).isEqualTo(new ModelCallStarted("id-1", 2));
            assertThat(d.state().status()).isEqualTo(SessionStatus.RUNNING);
        }

        @Test
        void a_whisper_still_queued_when_the_turn_ends_is_dropped_with_it() {
            Decision d = turnAwaiting("r1").and(new WhisperQueued("w1", "too late", USER)).when(new CancelTurn());

            assertThat(d.state().queuedWhispers()).isEmpty();
            assertThat(d.events()).noneMatch(e -> e instanceof WhisperDelivered);
        }

        @Test
        void a_whisper_to_a_waiting_turn_waits_for_the_wake_up() {
            DeciderFixture f = turnAwaiting("r1").and(
                    new ModelCallCompleted("r1", "m", "WAIT: 2026-11-22T12:00:00Z: later", null, List.of(), USAGE,
                            "stop"),
                    new WaitScheduled("wait-1", NOW.plusSeconds(7200), "later", null));

            Decision whisper = f.when(new PostWhisper("check the logs too"));
            assertThat(whisper.events()).singleElement().isInstanceOf(WhisperQueued.class);

            Decision woken = f.and(whisper.events().toArray(new dev.agentbus.events.session.SessionEvent[0]))
                    .when(new WakeUp("wait-1"));
            assertThat(woken.events()).containsExactly(new WaitEnded("wait-1"), new WhisperDelivered("id-1"),
                    new ModelCallStarted("id-2", 2));
        }
    }

    @Nested
    class MessagesWakeAWaitingTurn {
        @Test
        void a_message_during_a_wait_line_ends_the_wait_early_joins_the_turn_and_calls_the_model() {
            Decision d = turnAwaiting("r1").and(
                    new ModelCallCompleted("r1", "m", "WAIT: 2026-11-22T12:00:00Z: later", null, List.of(), USAGE,
                            "stop"),
                    new WaitScheduled("wait-1", NOW.plusSeconds(7200), "later", null))
                    .when(new PostUserMessage("no need to wait, the build is done"));

            assertThat(d.events()).containsExactly(new WaitEnded("wait-1", true),
                    new UserMessagePosted("no need to wait, the build is done"), new ModelCallStarted("id-1", 2));
            assertThat(d.effects()).containsExactly(new Effect.CallModel(DeciderFixture.SESSION, "id-1"));
            assertThat(d.state().turns()).as("the message joins the turn it woke").isEqualTo(1);
            assertThat(d.state().pendingWait()).isNull();
            assertThat(d.state().messages()).noneMatch(m -> m instanceof Message.Notice);
        }

        @Test
        void a_message_during_the_wait_tool_answers_the_call_as_interrupted() {
            Decision d = turnAwaiting("r1").and(asked("r1", new ToolCallSpec("c1", "wait", "{\"seconds\":3600}")),
                    new WaitScheduled("wait-1", NOW.plusSeconds(3600), null, "c1"))
                    .when(new PostUserMessage("stop waiting"));

            assertThat(d.events()).hasSize(4);
            assertThat(d.events().get(0)).isEqualTo(new WaitEnded("wait-1", true));
            assertThat(d.events().get(1)).isInstanceOfSatisfying(ToolCallCompleted.class, c -> {
                assertThat(c.callId()).isEqualTo("c1");
                assertThat(c.ok()).isTrue();
                assertThat(c.output()).contains("interrupted").contains("by a message from the user");
            });
            assertThat(d.events().get(2)).isEqualTo(new UserMessagePosted("stop waiting"));
            assertThat(d.events().get(3)).isEqualTo(new ModelCallStarted("id-1", 2));
        }

        @Test
        void a_message_while_approvals_are_pending_denies_them_answers_the_held_calls_and_calls_the_model() {
            Decision d = given(new SessionCreated("t", PermissionMode.NORMAL), new UserMessagePosted("do it"),
                    new ModelCallStarted("r1", 1),
                    asked("r1", new ToolCallSpec("c1", "shell", SHELL_ARGS), new ToolCallSpec("c2", "ls", "{}")),
                    new ApprovalRequested("c1", "shell", SHELL_ARGS, Risk.HIGH, "normal mode", NOW.plusSeconds(60)))
                    .whenBy("bob", new PostUserMessage("don't run that, read notes.md instead"));

            assertThat(d.events()).hasSize(6);
            assertThat(d.events().get(0)).isEqualTo(new ApprovalDecided("c1", ApprovalDecision.DENIED,
                    "the person sent a new message instead", "bob"));
            assertThat(d.events().get(1)).isInstanceOfSatisfying(ToolCallCompleted.class, c -> {
                assertThat(c.callId()).isEqualTo("c1");
                assertThat(c.error()).isEqualTo("not run: the person sent a new message instead of deciding on this call");
            });
            assertThat(d.events().get(2)).isInstanceOfSatisfying(ToolCallCompleted.class, c -> {
                assertThat(c.callId()).isEqualTo("c2");
                assertThat(c.ok()).isFalse();
            });
            assertThat(d.events().get(3)).isEqualTo(new UserMessagePosted("don't run that, read notes.md instead"));
            // bob is a group member, not the owner: the rest of the turn runs without the owner's memory.
            assertThat(d.events().get(4)).isEqualTo(new MemoryAttached("", OwnerOnlyMemory.WITHHELD));
            assertThat(d.events().get(5)).isEqualTo(new ModelCallStarted("id-1", 2));
            assertThat(d.state().pendingApprovals()).isEmpty();
            assertThat(d.state().turn().openToolCalls()).isEmpty();
        }

        @Test
        void a_message_that_wakes_a_turn_still_waits_for_a_call_already_running_before_calling_the_model() {
            Decision d = turnAwaiting("r1").and(
                    asked("r1", new ToolCallSpec("c1", "shell", SHELL_ARGS), new ToolCallSpec("c2", "wait",
                            "{\"seconds\":600}")),
                    new ToolCallRequested("c1", "shell", SHELL_ARGS),
                    new WaitScheduled("wait-1", NOW.plusSeconds(600), null, "c2"))
                    .when(new PostUserMessage("hi"));

            assertThat(d.effects()).isEmpty();
            assertThat(d.state().turn().openToolCalls()).containsExactly("c1");
            assertThat(d.state().status()).isEqualTo(SessionStatus.RUNNING);
        }

        @Test
        void a_message_while_the_turn_is_at_work_is_still_rejected_pointing_at_whispers() {
            Decision d = turnAwaiting("r1").when(new PostUserMessage("more"));

            assertThat(d.events()).singleElement().isInstanceOfSatisfying(InputRejected.class,
                    r -> assertThat(r.reason()).contains("running").contains("whisper"));
        }

        @Test
        void the_scheduler_wake_up_after_an_interrupted_wait_is_ignored() {
            DeciderFixture f = turnAwaiting("r1").and(
                    new ModelCallCompleted("r1", "m", "WAIT: 2026-11-22T12:00:00Z: later", null, List.of(), USAGE,
                            "stop"),
                    new WaitScheduled("wait-1", NOW.plusSeconds(7200), "later", null),
                    new WaitEnded("wait-1", true), new UserMessagePosted("go on"), new ModelCallStarted("r2", 2));

            assertThat(f.when(new WakeUp("wait-1")).events()).isEmpty();
        }

        @Test
        void a_turn_woken_and_then_answered_ends_as_usual() {
            Decision d = turnAwaiting("r1").and(
                    new ModelCallCompleted("r1", "m", "WAIT: 2026-11-22T12:00:00Z: later", null, List.of(), USAGE,
                            "stop"),
                    new WaitScheduled("wait-1", NOW.plusSeconds(7200), "later", null),
                    new WaitEnded("wait-1", true), new UserMessagePosted("go on"), new ModelCallStarted("r2", 2))
                    .when(answer("r2", "Done."));

            assertThat(d.events().getLast()).isEqualTo(new TurnEnded(TurnOutcome.COMPLETED, "Done.", null));
            assertThat(d.state().turns()).isEqualTo(1);
        }
    }

    @Nested
    class Stopping {
        @Test
        void a_cancel_while_the_model_streams_stops_that_model_call() {
            Decision d = turnAwaiting("r1").when(new CancelTurn());

            assertThat(d.events()).containsExactly(new TurnEnded(TurnOutcome.CANCELLED, null, "cancelled by the user"));
            assertThat(d.effects()).containsExactly(new Effect.StopModelCall(DeciderFixture.SESSION, "r1"));
        }

        @Test
        void a_cancel_while_tools_run_has_no_model_call_to_stop() {
            Decision d = turnAwaiting("r1").and(asked("r1", new ToolCallSpec("c1", "shell", SHELL_ARGS)),
                    new ToolCallRequested("c1", "shell", SHELL_ARGS)).when(new CancelTurn());

            assertThat(d.effects()).isEmpty();
        }
    }
}
