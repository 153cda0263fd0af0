package dev.agentbus.orchestrator.deciding;

import dev.agentbus.events.input.SessionInput.CancelTurn;
import dev.agentbus.events.input.SessionInput.CreateSession;
import dev.agentbus.events.input.SessionInput.MarkToolCallStarted;
import dev.agentbus.events.input.SessionInput.PostNotification;
import dev.agentbus.events.input.SessionInput.PostUserMessage;
import dev.agentbus.events.input.SessionInput.RecordModelFailure;
import dev.agentbus.events.input.SessionInput.RecordModelResult;
import dev.agentbus.events.input.SessionInput.RecordToolResult;
import dev.agentbus.events.input.SessionInput.UnknownInput;
import dev.agentbus.events.input.SessionInput.WakeUp;
import dev.agentbus.events.session.SessionEvent.InputRejected;
import dev.agentbus.events.session.SessionEvent.MemoryAttached;
import dev.agentbus.events.session.SessionEvent.ModelCallCompleted;
import dev.agentbus.events.session.SessionEvent.ModelCallFailed;
import dev.agentbus.events.session.SessionEvent.ModelCallStarted;
import dev.agentbus.events.session.SessionEvent.NotificationPosted;
import dev.agentbus.events.session.SessionEvent.SessionCreated;
import dev.agentbus.events.session.SessionEvent.ToolCallCompleted;
import dev.agentbus.events.session.SessionEvent.ToolCallRequested;
import dev.agentbus.events.session.SessionEvent.ToolCallStarted;
import dev.agentbus.events.session.SessionEvent.TurnEnded;
import dev.agentbus.events.session.SessionEvent.UserMessagePosted;
import dev.agentbus.events.session.SessionEvent.WaitEnded;
import dev.agentbus.events.session.SessionEvent.WaitScheduled;
import dev.agentbus.events.session.PermissionMode;
import dev.agentbus.events.session.TokenUsage;
import dev.agentbus.events.session.ToolCallSpec;
import dev.agentbus.events.session.TurnOutcome;
import dev.agentbus.events.state.SessionStatus;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;

import static dev.agentbus.orchestrator.deciding.DeciderFixture.NOW;
import static dev.agentbus.orchestrator.deciding.DeciderFixture.given;
import static org.assertj.core.api.Assertions.assertThat;

class SessionDeciderTest {
    private static final TokenUsage USAGE = new TokenUsage(100, 20, 120);

    private static RecordModelResult answer(String requestId, String content) {
        return new RecordModelResult(requestId, "m", content, null, List.of(), USAGE, "stop");
    }

    private static RecordModelResult toolCalls(String requestId, ToolCallSpec... calls) {
        return new RecordModelResult(requestId, "m", "", null, List.of(calls), USAGE, "tool_calls");
    }

    /** A session with a turn in progress awaiting model call r1. */
    private static DeciderFixture turnAwaiting(String requestId) {
        return given(new SessionCreated("t"), new UserMessagePosted("do it"), new ModelCallStarted(requestId, 1));
    }

    @Nested
    class StartingTurns {
        @Test
        void creating_a_session_records_it_with_its_title() {
            Decision d = given().when(new CreateSession("My task"));
            assertThat(d.events()).containsExactly(new SessionCreated("My task", PermissionMode.AUTO));
            assertThat(d.state().status()).isEqualTo(SessionStatus.IDLE);
            assertThat(d.state().userId()).isEqualTo("alice");
        }

        @Test
        void creating_it_twice_is_rejected_with_a_reason() {
            Decision d = given(new SessionCreated("t")).when(new CreateSession("again"));
            assertThat(d.events()).singleElement().isInstanceOfSatisfying(InputRejected.class,
                    r -> assertThat(r.reason()).contains("already exists"));
        }

        @Test
        void a_message_starts_a_turn_and_calls_the_model() {
            Decision d = given(new SessionCreated("t")).when(new PostUserMessage("hello"));
            assertThat(d.events()).containsExactly(new UserMessagePosted("hello"), new ModelCallStarted("id-1", 1));
            assertThat(d.effects()).containsExactly(new Effect.CallModel("s-1", "id-1"));
            assertThat(d.state().status()).isEqualTo(SessionStatus.RUNNING);
        }

        @Test
        void a_changed_memory_document_is_attached_before_the_model_call() {
            Decision d = given(new SessionCreated("t")).withMemory("likes tea", 3).when(new PostUserMessage("hi"));
            assertThat(d.events()).containsExactly(new UserMessagePosted("hi"), new MemoryAttached("likes tea", 3),
                    new ModelCallStarted("id-1", 1));
        }

        @Test
        void an_unchanged_memory_document_is_not_attached_again() {
            Decision d = given(new SessionCreated("t"), new MemoryAttached("likes tea", 3))
                    .withMemory("likes tea", 3).when(new PostUserMessage("hi"));
            assertThat(d.events()).noneMatch(e -> e instanceof MemoryAttached);
        }

        @Test
        void a_message_while_a_turn_runs_is_rejected_and_nothing_else_happens() {
            Decision d = turnAwaiting("r1").when(new PostUserMessage("more"));
            assertThat(d.events()).singleElement().isInstanceOfSatisfying(InputRejected.class, r -> {
                assertThat(r.inputType()).isEqualTo("post_user_message.v1");
                assertThat(r.reason()).contains("already running");
            });
            assertThat(d.effects()).isEmpty();
        }

        @Test
        void an_empty_message_is_rejected() {
            Decision d = given(new SessionCreated("t")).when(new PostUserMessage("  "));
            assertThat(d.events()).singleElement().isInstanceOf(InputRejected.class);
        }

        @Test
        void inputs_for_a_session_that_does_not_exist_are_ignored_not_recorded() {
            Decision d = given().when(new PostUserMessage("hello"));
            assertThat(d.events()).isEmpty();
            assertThat(d.ignoredBecause()).contains("does not exist");
        }
    }

    @Nested
    class ModelAnswers {
        @Test
        void a_final_answer_is_recorded_and_ends_the_turn() {
            Decision d = turnAwaiting("r1").when(answer("r1", "done"));
            assertThat(d.events()).containsExactly(
                    new ModelCallCompleted("r1", "m", "done", null, List.of(), USAGE, "stop"),
                    new TurnEnded(TurnOutcome.COMPLETED, "done", null));
            assertThat(d.state().usage()).isEqualTo(USAGE);
            assertThat(d.effects()).isEmpty();
        }

        @Test
        void sandbox_tool_calls_are_requested_and_the_model_waits_for_their_results() {
            Decision d = turnAwaiting("r1").when(toolCalls("r1",
                    new ToolCallSpec("c1", "write", "{\"path\":\"a.txt\",\"content\":\"hi\"}"),
                    new ToolCallSpec("c2", "shell", "{\"command\":\"cat a.txt\"}")));
            assertThat(d.events()).hasSize(3);
            assertThat(d.events().get(1)).isEqualTo(
                    new ToolCallRequested("c1", "write", "{\"path\":\"a.txt\",\"content\":\"hi\"}"));
            assertThat(d.events().get(2)).isInstanceOf(ToolCallRequested.class);
            assertThat(d.effects()).isEmpty();
            assertThat(d.state().turn().openToolCalls()).containsExactly("c1", "c2");
        }

        @Test
        void an_unknown_tool_is_answered_with_an_error_and_the_model_is_called_again() {
            Decision d = turnAwaiting("r1").when(toolCalls("r1", new ToolCallSpec("c1", "teleport", "{}")));
            assertThat(d.events().get(1)).isInstanceOfSatisfying(ToolCallCompleted.class, c -> {
                assertThat(c.ok()).isFalse();
                assertThat(c.error()).contains("unknown tool 'teleport'").contains("shell");
            });
            assertThat(d.events().get(2)).isEqualTo(new ModelCallStarted("id-1", 2));
            assertThat(d.effects()).containsExactly(new Effect.CallModel("s-1", "id-1"));
        }

        @Test
        void arguments_that_are_not_json_are_answered_with_an_error() {
            Decision d = turnAwaiting("r1").when(toolCalls("r1", new ToolCallSpec("c1", "read", "{path: x")));
            assertThat(d.events().get(1)).isInstanceOfSatisfying(ToolCallCompleted.class,
                    c -> assertThat(c.error()).contains("not a JSON object"));
        }

        @Test
        void missing_or_repeated_call_ids_are_replaced_so_each_result_answers_one_call() {
            Decision d = turnAwaiting("r1").when(toolCalls("r1", new ToolCallSpec(null, "ls", "{}"),
                    new ToolCallSpec("same", "ls", "{}"), new ToolCallSpec("same", "ls", "{}")));
            ModelCallCompleted recorded = (ModelCallCompleted) d.events().getFirst();
            assertThat(recorded.toolCalls()).extracting(ToolCallSpec::id)
                    .containsExactly("call_id-1", "same", "call_id-2");
            assertThat(d.state().turn().openToolCalls()).containsExactly("call_id-1", "same", "call_id-2");
        }

        @Test
        void a_stale_or_duplicate_answer_is_ignored() {
            DeciderFixture f = turnAwaiting("r1");
            assertThat(f.when(answer("r0", "old")).events()).isEmpty();
            Decision again = given(new SessionCreated("t"), new UserMessagePosted("x"), new ModelCallStarted("r1", 1),
                    new ModelCallCompleted("r1", "m", "done", null, List.of(), USAGE, "stop"),
                    new TurnEnded(TurnOutcome.COMPLETED, "done", null)).when(answer("r1", "done"));
            assertThat(again.events()).isEmpty();
            assertThat(again.ignoredBecause()).contains("r1");
        }

        @Test
        void a_model_failure_ends_the_turn_with_an_error_that_says_why() {
            Decision d = turnAwaiting("r1").when(new RecordModelFailure("r1", "connection refused"));
            assertThat(d.events()).containsExactly(new ModelCallFailed("r1", "connection refused"),
                    new TurnEnded(TurnOutcome.ERROR, null, "model call failed: connection refused"));
        }
    }

    @Nested
    class ToolResults {
        private DeciderFixture twoCallsRequested() {
            return given(new SessionCreated("t"), new UserMessagePosted("x"), new ModelCallStarted("r1", 1),
                    new ModelCallCompleted("r1", "m", "", null, List.of(new ToolCallSpec("c1", "ls", "{}"),
                            new ToolCallSpec("c2", "ls", "{}")), USAGE, "tool_calls"),
                    new ToolCallRequested("c1", "ls", "{}"), new ToolCallRequested("c2", "ls", "{}"));
        }

        @Test
        void a_worker_starting_a_call_is_recorded_once() {
            Decision d = twoCallsRequested().when(new MarkToolCallStarted("c1", "w0"));
            assertThat(d.events()).containsExactly(new ToolCallStarted("c1", "w0"));
        }

        @Test
        void the_model_is_called_only_when_every_call_has_its_result() {
            DeciderFixture f = twoCallsRequested();
            Decision first = f.when(new RecordToolResult("c1", true, "a.txt", null, null, false, 5, false));
            assertThat(first.events()).hasSize(1);
            assertThat(first.effects()).isEmpty();
        }

        @Test
        void the_last_result_calls_the_model_with_the_next_iteration() {
            DeciderFixture f = twoCallsRequested();
            Decision d = f.and(new ToolCallCompleted("c1", true, "a", null, null, false, 1, false))
                    .when(new RecordToolResult("c2", true, "b", null, null, false, 1, false));
            assertThat(d.events()).containsExactly(new ToolCallCompleted("c2", true, "b", null, null, false, 1, false),
                    new ModelCallStarted("id-1", 2));
        }

        @Test
        void a_result_recorded_already_is_not_recorded_twice() {
            DeciderFixture f = twoCallsRequested().and(new ToolCallCompleted("c1", true, "a", null, null, false, 1, false));
            Decision d = f.when(new RecordToolResult("c1", true, "a", null, null, false, 1, false));
            assertThat(d.events()).isEmpty();
        }

        @Test
        void the_iteration_cap_ends_the_turn_instead_of_calling_the_model() {
            DeciderFixture f = twoCallsRequested().and(new ToolCallCompleted("c1", true, "a", null, null, false, 1, false)).withMaxIterations(1);
            Decision d = f.when(new RecordToolResult("c2", true, "b", null, null, false, 1, false));
            assertThat(d.events().getLast()).isInstanceOfSatisfying(TurnEnded.class, t -> {
                assertThat(t.outcome()).isEqualTo(TurnOutcome.ITERATION_CAP);
                assertThat(t.message()).contains("1 model calls");
            });
            assertThat(d.effects()).isEmpty();
        }

        @Test
        void a_result_after_cancel_is_recorded_but_does_not_call_the_model() {
            DeciderFixture f = twoCallsRequested().and(new TurnEnded(TurnOutcome.CANCELLED, null, "x"));
            Decision d = f.when(new RecordToolResult("c1", true, "a", null, null, false, 1, false));
            assertThat(d.events()).singleElement().isInstanceOf(ToolCallCompleted.class);
            assertThat(d.effects()).isEmpty();
        }
    }

    @Nested
    class Waiting {
        @Test
        void a_wait_line_in_the_answer_suspends_the_turn_until_that_time() {
            Decision d = turnAwaiting("r1").when(answer("r1", "Checked.\nWAIT: 2026-11-22T12:00:00Z: check again"));
            assertThat(d.events().get(1)).isEqualTo(new WaitScheduled("id-1",
                    Instant.parse("2026-11-22T12:00:00Z"), "check again", null));
            assertThat(d.state().status()).isEqualTo(SessionStatus.WAITING);
        }

        @Test
        void the_wait_tool_suspends_and_its_wake_up_answers_the_call_and_continues() {
            DeciderFixture f = turnAwaiting("r1");
            Decision asked = f.when(toolCalls("r1", new ToolCallSpec("c1", "wait", "{\"seconds\":60}")));
            assertThat(asked.events().get(1)).isEqualTo(new WaitScheduled("id-1", NOW.plusSeconds(60), null, "c1"));

            Decision woken = f.and(asked.events().toArray(new dev.agentbus.events.session.SessionEvent[0]))
                    .when(new WakeUp("id-1"));
            assertThat(woken.events().get(0)).isEqualTo(new WaitEnded("id-1"));
            assertThat(woken.events().get(1)).isInstanceOfSatisfying(ToolCallCompleted.class,
                    c -> assertThat(c.callId()).isEqualTo("c1"));
            assertThat(woken.events().get(2)).isInstanceOf(ModelCallStarted.class);
        }

        @Test
        void a_wake_up_for_a_wait_that_is_not_pending_is_ignored() {
            Decision d = turnAwaiting("r1").when(new WakeUp("nope"));
            assertThat(d.events()).isEmpty();
        }

        @Test
        void a_wait_further_than_a_year_or_beyond_the_clock_is_refused_not_scheduled() {
            for (String args : List.of("{\"seconds\":99999999999999999}", "{\"seconds\":9223372036854775807}",
                    "{\"seconds\":-5}", "{\"until\":\"+999999999-12-31T23:59:59Z\"}",
                    "{\"until\":\"2030-01-01T00:00:00Z\"}")) {
                Decision d = turnAwaiting("r1").when(toolCalls("r1", new ToolCallSpec("c1", "wait", args)));
                assertThat(d.events()).as(args).noneMatch(e -> e instanceof WaitScheduled);
                assertThat(d.events().get(1)).as(args).isInstanceOfSatisfying(ToolCallCompleted.class,
                        c -> assertThat(c.error()).contains("at most 366 days"));
            }
        }

        @Test
        void a_wait_line_too_far_ahead_is_an_ordinary_answer() {
            Decision d = turnAwaiting("r1").when(answer("r1", "WAIT: +999999999-12-31T23:59:59Z: never"));
            assertThat(d.events().getLast()).isInstanceOfSatisfying(TurnEnded.class,
                    t -> assertThat(t.outcome()).isEqualTo(TurnOutcome.COMPLETED));
        }

        @Test
        void a_wait_tool_without_a_time_is_answered_with_an_error() {
            Decision d = turnAwaiting("r1").when(toolCalls("r1", new ToolCallSpec("c1", "wait", "{}")));
            assertThat(d.events().get(1)).isInstanceOfSatisfying(ToolCallCompleted.class,
                    c -> assertThat(c.error()).contains("until"));
        }
    }

    @Nested
    class CancellingAndUnknowns {
        @Test
        void cancel_ends_the_running_turn() {
            Decision d = turnAwaiting("r1").when(new CancelTurn());
            assertThat(d.events()).containsExactly(new TurnEnded(TurnOutcome.CANCELLED, null, "cancelled by the user"));
            assertThat(d.state().status()).isEqualTo(SessionStatus.IDLE);
        }

        @Test
        void the_answer_to_a_cancelled_turn_is_ignored() {
            Decision d = given(new SessionCreated("t"), new UserMessagePosted("x"), new ModelCallStarted("r1", 1),
                    new TurnEnded(TurnOutcome.CANCELLED, null, "x")).when(answer("r1", "late"));
            assertThat(d.events()).isEmpty();
        }

        @Test
        void cancel_without_a_turn_is_rejected() {
            Decision d = given(new SessionCreated("t")).when(new CancelTurn());
            assertThat(d.events()).singleElement().isInstanceOf(InputRejected.class);
        }

        @Test
        void a_notification_is_recorded_even_while_a_turn_runs_and_changes_nothing_else() {
            Decision d = turnAwaiting("r1").when(new PostNotification("report ready"));
            assertThat(d.events()).containsExactly(new NotificationPosted("report ready", "alice"));
            assertThat(d.effects()).isEmpty();
            assertThat(d.state().status()).isEqualTo(SessionStatus.RUNNING);
            assertThat(d.state().messages()).hasSize(1);
        }

        @Test
        void an_empty_notification_is_rejected() {
            Decision d = given(new SessionCreated("t")).when(new PostNotification(" "));
            assertThat(d.events()).singleElement().isInstanceOfSatisfying(InputRejected.class,
                    r -> assertThat(r.reason()).isEqualTo("the notification is empty"));
        }

        @Test
        void an_unknown_input_type_is_rejected_with_its_type() {
            Decision d = given(new SessionCreated("t")).when(new UnknownInput("future.v9", null));
            assertThat(d.events()).singleElement().isInstanceOfSatisfying(InputRejected.class, r -> {
                assertThat(r.inputType()).isEqualTo("future.v9");
                assertThat(r.reason()).contains("unknown input type");
            });
        }
    }
}
