package dev.agentbus.orchestrator.deciding;

import dev.agentbus.events.input.SessionInput.RecordModelResult;
import dev.agentbus.events.planning.PlanStatus;
import dev.agentbus.events.planning.StepStatus;
import dev.agentbus.events.planning.TodoStatus;
import dev.agentbus.events.session.PermissionMode;
import dev.agentbus.events.session.SessionEvent;
import dev.agentbus.events.session.SessionEvent.ModelCallCompleted;
import dev.agentbus.events.session.SessionEvent.ModelCallStarted;
import dev.agentbus.events.session.SessionEvent.PlanAborted;
import dev.agentbus.events.session.SessionEvent.PlanAdvanced;
import dev.agentbus.events.session.SessionEvent.PlanCreated;
import dev.agentbus.events.session.SessionEvent.PlanStepCompleted;
import dev.agentbus.events.session.SessionEvent.SessionCreated;
import dev.agentbus.events.session.SessionEvent.TaskReconciled;
import dev.agentbus.events.session.SessionEvent.TaskStateUpdated;
import dev.agentbus.events.session.SessionEvent.TodoAdded;
import dev.agentbus.events.session.SessionEvent.TodoUpdated;
import dev.agentbus.events.session.SessionEvent.ToolCallCompleted;
import dev.agentbus.events.session.SessionEvent.ToolCallRequested;
import dev.agentbus.events.session.SessionEvent.UserMessagePosted;
import dev.agentbus.events.session.TokenUsage;
import dev.agentbus.events.session.ToolCallSpec;
import dev.agentbus.events.state.SessionStatus;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import static dev.agentbus.orchestrator.deciding.DeciderFixture.given;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The planning tools in the decider (todos, plans, task state): given events, when the model calls one, then the
 * event of the change and the call's result, answered by the orchestrator itself. Plan-first mode is in
 * {@link PlanFirstTest}.
 */
class PlanningToolsTest {
    private static final TokenUsage USAGE = new TokenUsage(10, 2, 12);

    /** A session with a turn awaiting model call r1. */
    static DeciderFixture turnAwaiting(SessionEvent... before) {
        DeciderFixture f = given(new SessionCreated("t", PermissionMode.AUTO)).and(before);
        return f.and(new UserMessagePosted("do it"), new ModelCallStarted("r1", 1));
    }

    static RecordModelResult calls(String requestId, ToolCallSpec... calls) {
        return new RecordModelResult(requestId, "m", "", null, List.of(calls), USAGE, "tool_calls");
    }

    static ModelCallCompleted asked(String requestId, ToolCallSpec... calls) {
        return new ModelCallCompleted(requestId, "m", "", null, List.of(calls), USAGE, "tool_calls");
    }

    static ToolCallSpec call(String id, String tool, String arguments) {
        return new ToolCallSpec(id, tool, arguments);
    }

    /** The result of call {@code callId} among the decision's events. */
    static ToolCallCompleted resultOf(Decision d, String callId) {
        return d.events().stream().filter(e -> e instanceof ToolCallCompleted c && c.callId().equals(callId))
                .map(ToolCallCompleted.class::cast).findFirst()
                .orElseThrow(() -> new AssertionError("no result for " + callId + " in " + d.events()));
    }

    /** The events other than results and the model call that follows them: the changes the calls made. */
    static List<SessionEvent> changes(Decision d) {
        return d.events().stream().filter(e -> !(e instanceof ToolCallCompleted) && !(e instanceof ModelCallCompleted)
                && !(e instanceof ModelCallStarted)).toList();
    }

    /** The model calls, then the session's state after each decision is the next given. */
    private static Decision afterCalls(DeciderFixture f, ToolCallSpec... calls) {
        return f.when(calls("r1", calls));
    }

    @Nested
    class Todos {
        @Test
        void todo_add_numbers_the_todo_and_answers_the_list_and_the_model_goes_on() {
            Decision d = afterCalls(turnAwaiting(new TodoAdded(1, "read the spec")),
                    call("c1", "todo_add", "{\"text\":\" write the tests \"}"));

            assertThat(changes(d)).containsExactly(new TodoAdded(2, "write the tests"));
            ToolCallCompleted result = resultOf(d, "c1");
            assertThat(result.ok()).isTrue();
            assertThat(result.output()).startsWith("Added todo #2.")
                    .contains("#1 [pending] read the spec", "#2 [pending] write the tests");
            assertThat(d.state().planning().todos()).hasSize(2);
            assertThat(d.effects()).as("answered by the orchestrator, so the model is called again at once")
                    .singleElement().isInstanceOf(Effect.CallModel.class);
            assertThat(d.events()).noneMatch(e -> e instanceof ToolCallRequested);
        }

        @Test
        void todo_add_without_text_fails_and_changes_nothing() {
            Decision d = afterCalls(turnAwaiting(), call("c1", "todo_add", "{\"text\":\"  \"}"));

            assertThat(changes(d)).isEmpty();
            assertThat(resultOf(d, "c1").ok()).isFalse();
            assertThat(resultOf(d, "c1").error()).isEqualTo("todo_add needs text (a text of at most 2000 characters)");
        }

        @Test
        void a_text_longer_than_the_limit_counts_as_missing() {
            Decision d = afterCalls(turnAwaiting(), call("c1", "todo_add", "{\"text\":\"" + "x".repeat(2001) + "\"}"));

            assertThat(changes(d)).isEmpty();
            assertThat(resultOf(d, "c1").error()).isEqualTo("todo_add needs text (a text of at most 2000 characters)");
        }

        @Test
        void todo_add_refuses_a_todo_beyond_the_limit() {
            List<SessionEvent> full = new ArrayList<>();
            for (int i = 1; i <= 200; i++) {
                full.add(new TodoAdded(i, "item " + i));
            }
            Decision d = afterCalls(turnAwaiting(full.toArray(SessionEvent[]::new)),
                    call("c1", "todo_add", "{\"text\":\"one more\"}"));

            assertThat(changes(d)).isEmpty();
            assertThat(resultOf(d, "c1").error()).startsWith("the todo list is full (200 todos)");
        }

        @Test
        void todo_update_changes_the_fields_given_also_with_the_id_written_as_a_string() {
            Decision d = afterCalls(turnAwaiting(new TodoAdded(1, "read the spec")), call("c1", "todo_update",
                    "{\"id\":\"1\",\"status\":\"In-Progress\",\"note\":\"half way\"}"));

            assertThat(changes(d)).containsExactly(new TodoUpdated(1, TodoStatus.IN_PROGRESS, null, "half way"));
            assertThat(resultOf(d, "c1").output()).startsWith("Todo #1 is in_progress.")
                    .contains("#1 [in_progress] read the spec (half way)");
        }

        @Test
        void todo_update_explains_an_unknown_todo_a_bad_status_and_a_call_that_changes_nothing() {
            DeciderFixture f = turnAwaiting(new TodoAdded(1, "read the spec"));

            Decision d = afterCalls(f, call("c1", "todo_update", "{\"id\":7,\"status\":\"done\"}"),
                    call("c2", "todo_update", "{\"id\":1,\"status\":\"finished\"}"),
                    call("c3", "todo_update", "{\"id\":1}"), call("c4", "todo_update", "{\"status\":\"done\"}"));

            assertThat(changes(d)).isEmpty();
            assertThat(resultOf(d, "c1").error()).startsWith("there is no todo #7.").contains("#1 [pending]");
            assertThat(resultOf(d, "c2").error()).isEqualTo("status must be pending, in_progress, done or cancelled");
            assertThat(resultOf(d, "c3").error()).startsWith("todo_update needs status, text or note");
            assertThat(resultOf(d, "c4").error()).isEqualTo("todo_update needs id, the todo's number");
        }

        @Test
        void todo_complete_marks_it_done_and_a_second_time_records_nothing() {
            Decision d = afterCalls(turnAwaiting(new TodoAdded(1, "read the spec")),
                    call("c1", "todo_complete", "{\"id\":1}"), call("c2", "todo_complete", "{\"id\":1}"));

            assertThat(changes(d)).containsExactly(new TodoUpdated(1, TodoStatus.DONE, null, null));
            assertThat(resultOf(d, "c1").output()).startsWith("Todo #1 is done.");
            assertThat(resultOf(d, "c2").ok()).isTrue();
            assertThat(resultOf(d, "c2").output()).startsWith("Todo #1 is already like that.");
            assertThat(d.state().planning().todo(1).orElseThrow().status()).isEqualTo(TodoStatus.DONE);
        }

        @Test
        void todo_list_only_reads() {
            Decision empty = afterCalls(turnAwaiting(), call("c1", "todo_list", "{}"));
            Decision some = afterCalls(turnAwaiting(new TodoAdded(1, "a"), new TodoAdded(2, "b"),
                    new TodoUpdated(2, TodoStatus.DONE, null, null)), call("c1", "todo_list", "{}"));

            assertThat(changes(empty)).isEmpty();
            assertThat(resultOf(empty, "c1").output()).isEqualTo("No todos yet.");
            assertThat(changes(some)).isEmpty();
            assertThat(resultOf(some, "c1").output()).isEqualTo("Todos:\n#1 [pending] a\n#2 [done] b");
        }
    }

    @Nested
    class Plans {
        private static final PlanCreated ACTIVE_PLAN = new PlanCreated(1, "ship it", List.of("build", "test", "tag"),
                "c0", false);

        @Test
        void plan_create_without_plan_first_is_active_at_once_with_its_first_step_current() {
            Decision d = afterCalls(turnAwaiting(), call("c1", "plan_create",
                    "{\"title\":\"ship it\",\"steps\":[\"build\",\" test \",\"tag\"]}"));

            assertThat(changes(d)).containsExactly(new PlanCreated(1, "ship it", List.of("build", "test", "tag"), "c1",
                    false));
            assertThat(resultOf(d, "c1").output()).startsWith("Created plan #1.\nPlan #1: ship it (active)")
                    .contains("→ 1. [pending] build").endsWith("Current step: 1. build");
            assertThat(d.state().planning().plan().status()).isEqualTo(PlanStatus.ACTIVE);
            assertThat(d.state().status()).isEqualTo(SessionStatus.RUNNING);
            assertThat(d.effects()).singleElement().isInstanceOf(Effect.CallModel.class);
        }

        @ParameterizedTest
        @ValueSource(strings = {"{}", "{\"steps\":[]}", "{\"steps\":\"build\"}", "{\"steps\":[\"build\",\" \"]}",
                "{\"steps\":[\"build\",3]}"})
        void plan_create_needs_a_list_of_non_empty_steps(String arguments) {
            Decision d = afterCalls(turnAwaiting(), call("c1", "plan_create", arguments));

            assertThat(changes(d)).isEmpty();
            assertThat(resultOf(d, "c1").ok()).isFalse();
        }

        @Test
        void plan_create_refuses_more_than_fifty_steps() {
            String steps = String.join(",", java.util.Collections.nCopies(51, "\"s\""));
            Decision d = afterCalls(turnAwaiting(), call("c1", "plan_create", "{\"steps\":[" + steps + "]}"));

            assertThat(resultOf(d, "c1").error()).isEqualTo("a plan has at most 50 steps");
        }

        @Test
        void plan_create_is_refused_while_another_plan_is_active_and_numbered_on_once_it_is_over() {
            Decision refused = afterCalls(turnAwaiting(ACTIVE_PLAN), call("c1", "plan_create", "{\"steps\":[\"x\"]}"));
            Decision after = afterCalls(turnAwaiting(ACTIVE_PLAN, new PlanAborted(1, "wrong approach")),
                    call("c1", "plan_create", "{\"steps\":[\"x\"]}"));

            assertThat(changes(refused)).isEmpty();
            assertThat(resultOf(refused, "c1").error()).startsWith("plan #1 is still active");
            assertThat(changes(after)).containsExactly(new PlanCreated(2, null, List.of("x"), "c1", false));
        }

        @Test
        void plan_complete_step_records_the_evidence_for_the_current_step_and_names_the_next() {
            Decision d = afterCalls(turnAwaiting(ACTIVE_PLAN),
                    call("c1", "plan_complete_step", "{\"evidence\":\"mvn package: BUILD SUCCESS\"}"));

            assertThat(changes(d)).containsExactly(new PlanStepCompleted(1, 1, "mvn package: BUILD SUCCESS"));
            assertThat(resultOf(d, "c1").output()).startsWith("Step 1 is done.")
                    .contains("1. [done] build — evidence: mvn package: BUILD SUCCESS").endsWith("Current step: 2. test");
            assertThat(d.state().planning().plan().currentStep()).isEqualTo(2);
        }

        @Test
        void plan_complete_step_needs_evidence_a_real_pending_step_and_an_active_plan() {
            Decision d = afterCalls(turnAwaiting(ACTIVE_PLAN, new PlanStepCompleted(1, 1, "ok")),
                    call("c1", "plan_complete_step", "{}"),
                    call("c2", "plan_complete_step", "{\"evidence\":\"e\",\"step\":9}"),
                    call("c3", "plan_complete_step", "{\"evidence\":\"e\",\"step\":1}"));
            Decision none = afterCalls(turnAwaiting(), call("c1", "plan_complete_step", "{\"evidence\":\"e\"}"));

            assertThat(changes(d)).isEmpty();
            assertThat(resultOf(d, "c1").error()).startsWith("plan_complete_step needs evidence");
            assertThat(resultOf(d, "c2").error()).isEqualTo("plan #1 has steps 1 to 3");
            assertThat(resultOf(d, "c3").error()).startsWith("step 1 is done already.");
            assertThat(resultOf(none, "c1").error()).isEqualTo("there is no active plan; create one with plan_create");
        }

        @Test
        void completing_the_last_step_completes_the_plan_also_out_of_order() {
            Decision d = afterCalls(turnAwaiting(ACTIVE_PLAN, new PlanStepCompleted(1, 1, "built"),
                            new PlanStepCompleted(1, 3, "tagged")),
                    call("c1", "plan_complete_step", "{\"evidence\":\"tests pass\"}"));

            assertThat(changes(d)).containsExactly(new PlanStepCompleted(1, 2, "tests pass"));
            assertThat(resultOf(d, "c1").output()).endsWith("Every step is done or skipped: the plan is complete.");
            assertThat(d.state().planning().plan().status()).isEqualTo(PlanStatus.COMPLETED);
        }

        @Test
        void plan_advance_skips_the_current_step_with_the_reason() {
            Decision d = afterCalls(turnAwaiting(ACTIVE_PLAN),
                    call("c1", "plan_advance", "{\"reason\":\"already built by CI\"}"));

            assertThat(changes(d)).containsExactly(new PlanAdvanced(1, 1, "already built by CI"));
            assertThat(d.state().planning().plan().steps().getFirst().status()).isEqualTo(StepStatus.SKIPPED);
            assertThat(resultOf(d, "c1").output()).startsWith("Skipped step 1.").endsWith("Current step: 2. test");
        }

        @Test
        void plan_abort_needs_a_reason_and_gives_the_plan_up() {
            Decision d = afterCalls(turnAwaiting(ACTIVE_PLAN), call("c1", "plan_abort", "{}"),
                    call("c2", "plan_abort", "{\"reason\":\"the task changed\"}"));

            assertThat(changes(d)).containsExactly(new PlanAborted(1, "the task changed"));
            assertThat(resultOf(d, "c1").error()).startsWith("plan_abort needs the reason");
            assertThat(resultOf(d, "c2").output()).isEqualTo("Plan #1 is aborted.");
            assertThat(d.state().planning().plan().status()).isEqualTo(PlanStatus.ABORTED);
        }
    }

    @Nested
    class TaskState {
        @Test
        void task_state_update_records_only_what_is_given_and_answers_the_checkpoint() {
            Decision d = afterCalls(turnAwaiting(new TaskStateUpdated("resize images", 100, List.of("a.png"),
                    List.of("b.png"), "started")), call("c1", "task_state_update",
                    "{\"done\":[\"b.png\",\"c.png\",\"c.png\"],\"notes\":\"retrying failures\"}"));

            assertThat(changes(d)).containsExactly(new TaskStateUpdated(null, null, List.of("b.png", "c.png"),
                    List.of(), "retrying failures"));
            assertThat(resultOf(d, "c1").output()).startsWith("Checkpoint saved.\nTask state: resize images\n"
                    + "Done: 3 of 100, failed: 0\nDone items: a.png, b.png, c.png\nNotes: retrying failures");
            assertThat(d.state().planning().taskState().failed()).isEmpty();
        }

        @ParameterizedTest
        @ValueSource(strings = {"{}", "{\"total\":-1}", "{\"total\":\"many\"}", "{\"done\":\"a.png\"}",
                "{\"failed\":[\"\"]}"})
        void task_state_update_refuses_an_empty_or_malformed_checkpoint(String arguments) {
            Decision d = afterCalls(turnAwaiting(), call("c1", "task_state_update", arguments));

            assertThat(changes(d)).isEmpty();
            assertThat(resultOf(d, "c1").ok()).isFalse();
        }

        @Test
        void task_state_get_only_reads() {
            Decision none = afterCalls(turnAwaiting(), call("c1", "task_state_get", "{}"));
            Decision some = afterCalls(turnAwaiting(new TaskStateUpdated("resize", null, List.of("a"), List.of(),
                    null)), call("c1", "task_state_get", "{}"));

            assertThat(changes(none)).isEmpty();
            assertThat(resultOf(none, "c1").output()).isEqualTo("No task state recorded yet.");
            assertThat(changes(some)).isEmpty();
            assertThat(resultOf(some, "c1").output()).startsWith("Task state: resize\nDone: 1, failed: 0");
        }

        @Test
        void task_reconcile_renames_and_removes_the_items_it_has_and_lists_the_others() {
            Decision d = afterCalls(turnAwaiting(new TaskStateUpdated("move", 3, List.of("old/a", "old/b"),
                            List.of("old/c"), null)), call("c1", "task_reconcile",
                    "{\"renamed\":{\"old/a\":\"new/a\",\"old/x\":\"new/x\"},\"removed\":[\"old/c\"]}"));

            assertThat(changes(d)).containsExactly(new TaskReconciled(Map.of("old/a", "new/a"), List.of("old/c")));
            assertThat(resultOf(d, "c1").output())
                    .startsWith("Reconciled: 1 renamed, 1 removed; not in the checkpoint, left alone: old/x.");
            assertThat(d.state().planning().taskState().done()).containsExactly("new/a", "old/b");
            assertThat(d.state().planning().taskState().failed()).isEmpty();
        }

        @Test
        void task_reconcile_needs_a_checkpoint_and_an_item_it_has() {
            Decision none = afterCalls(turnAwaiting(), call("c1", "task_reconcile", "{\"removed\":[\"a\"]}"));
            Decision unknown = afterCalls(turnAwaiting(new TaskStateUpdated(null, null, List.of("a"), List.of(), null)),
                    call("c1", "task_reconcile", "{\"removed\":[\"zz\"]}"),
                    call("c2", "task_reconcile", "{\"renamed\":[\"a\"]}"));

            assertThat(resultOf(none, "c1").error()).startsWith("there is no task state to reconcile yet");
            assertThat(changes(unknown)).isEmpty();
            assertThat(resultOf(unknown, "c1").error()).isEqualTo("the checkpoint has none of these items: zz");
            assertThat(resultOf(unknown, "c2").error()).isEqualTo("renamed must be an object mapping old names to new ones");
        }
    }

    @Test
    void reporting_a_plan_step_done_counts_as_progress_for_the_no_progress_guard_and_listing_todos_does_not() {
        java.util.function.Function<ToolCallSpec, Decision> eighthStep = call -> {
            DeciderFixture f = given(new SessionCreated("t"), new UserMessagePosted("check the files"),
                    new PlanCreated(1, null, List.of("check", "report"), "c0", false))
                    .withLoopLimits(new LoopLimits(0, 8, 0, 0));
            for (int i = 1; i < 8; i++) {
                String args = "{\"path\":\"d" + i + "\"}";
                f.and(new ModelCallStarted("r" + i, i), asked("r" + i, call("c" + i, "ls", args)),
                        new ToolCallRequested("c" + i, "ls", args),
                        new ToolCallCompleted("c" + i, true, "x", null, null, false, 1, false));
            }
            return f.and(new ModelCallStarted("r8", 8)).when(calls("r8", call));
        };

        Decision reported = eighthStep.apply(call("c8", "plan_complete_step", "{\"evidence\":\"all 7 dirs exist\"}"));
        Decision listed = eighthStep.apply(call("c8", "todo_list", "{}"));

        assertThat(reported.events()).noneMatch(e -> e instanceof dev.agentbus.events.session.SessionEvent.LoopWarned);
        assertThat(listed.events()).anyMatch(e -> e instanceof dev.agentbus.events.session.SessionEvent.LoopWarned);
    }

    @Test
    void planning_tools_never_wait_for_approval_even_in_manual_mode() {
        Decision d = given(new SessionCreated("t", PermissionMode.MANUAL), new UserMessagePosted("go"),
                new ModelCallStarted("r1", 1)).when(calls("r1", call("c1", "todo_add", "{\"text\":\"a\"}"),
                call("c2", "plan_create", "{\"steps\":[\"a\"]}")));

        Consumer<String> answered = id -> assertThat(resultOf(d, id).ok()).isTrue();
        answered.accept("c1");
        answered.accept("c2");
        assertThat(d.state().pendingApprovals()).isEmpty();
    }
}
