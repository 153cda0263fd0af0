package dev.agentbus.events.state;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentbus.events.Json;
import dev.agentbus.events.planning.Plan;
import dev.agentbus.events.planning.PlanStatus;
import dev.agentbus.events.planning.PlanStep;
import dev.agentbus.events.planning.Planning;
import dev.agentbus.events.planning.StepStatus;
import dev.agentbus.events.planning.TaskState;
import dev.agentbus.events.planning.Todo;
import dev.agentbus.events.planning.TodoStatus;
import dev.agentbus.events.session.ApprovalDecision;
import dev.agentbus.events.session.EventEnvelope;
import dev.agentbus.events.session.SessionEvent;
import dev.agentbus.events.session.SessionEvent.ApprovalDecided;
import dev.agentbus.events.session.SessionEvent.ApprovalRequested;
import dev.agentbus.events.session.SessionEvent.ModelCallCompleted;
import dev.agentbus.events.session.SessionEvent.PlanAborted;
import dev.agentbus.events.session.SessionEvent.PlanAdvanced;
import dev.agentbus.events.session.SessionEvent.PlanCreated;
import dev.agentbus.events.session.SessionEvent.PlanFirstChanged;
import dev.agentbus.events.session.SessionEvent.PlanStepCompleted;
import dev.agentbus.events.session.SessionEvent.SessionCreated;
import dev.agentbus.events.session.SessionEvent.SessionForked;
import dev.agentbus.events.session.SessionEvent.TaskReconciled;
import dev.agentbus.events.session.SessionEvent.TaskStateUpdated;
import dev.agentbus.events.session.SessionEvent.TodoAdded;
import dev.agentbus.events.session.SessionEvent.TodoUpdated;
import dev.agentbus.events.session.SessionEvent.TurnEnded;
import dev.agentbus.events.session.SessionEvent.UserMessagePosted;
import dev.agentbus.events.session.TokenUsage;
import dev.agentbus.events.session.ToolCallSpec;
import dev.agentbus.events.session.TurnOutcome;
import dev.agentbus.events.tools.Risk;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static dev.agentbus.events.state.FoldScenario.given;
import static org.assertj.core.api.Assertions.assertThat;

/** How the planning events fold into {@code SessionState.planning}: given events, when one more, then the state. */
class PlanningFoldTest {
    private static final SessionCreated CREATED = new SessionCreated("t");
    private static final PlanCreated PLAN = new PlanCreated(1, "ship", List.of("build", "test"), "c1", false);
    private static final PlanCreated PROPOSED = new PlanCreated(1, "ship", List.of("build", "test"), "c1", true);

    /** A turn whose model proposed plan c1 in plan-first mode, awaiting the user's approval. */
    private static SessionEvent[] planAwaitingApproval() {
        return new SessionEvent[]{CREATED, new PlanFirstChanged(true, "ada"), new UserMessagePosted("go"),
                new ModelCallCompleted("r1", "m", "", null, List.of(new ToolCallSpec("c1", "plan_create", "{}")),
                        TokenUsage.ZERO, "tool_calls"),
                PROPOSED,
                new ApprovalRequested("c1", "plan_create", "{}", Risk.LOW, "plan-first", Instant.EPOCH)};
    }

    private static Plan plan(SessionState s) {
        return s.planning().plan();
    }

    @Test
    void a_session_that_never_planned_has_no_planning_and_leaves_it_out_of_its_json() {
        SessionState s = given(CREATED).when(new UserMessagePosted("hi")).state();

        assertThat(s.planning()).isEqualTo(Planning.NONE);
        assertThat(Json.mapper().valueToTree(s).has("planning")).isFalse();
    }

    @Test
    void plan_first_changed_sets_the_mode() {
        given(CREATED).when(new PlanFirstChanged(true, "ada"))
                .then(s -> assertThat(s.planning().planFirst()).isTrue())
                .then(s -> assertThat(s.planning().holdsTools()).isTrue());
    }

    @Nested
    class Todos {
        @Test
        void an_added_todo_is_pending_and_a_repeated_id_is_ignored() {
            given(CREATED, new TodoAdded(1, "a")).when(new TodoAdded(1, "again"))
                    .then(s -> assertThat(s.planning().todos()).containsExactly(
                            new Todo(1, "a", TodoStatus.PENDING, null)));
        }

        @Test
        void an_update_changes_only_the_fields_it_carries_and_one_for_an_unknown_todo_nothing() {
            given(CREATED, new TodoAdded(1, "a"), new TodoUpdated(1, null, null, "first note"))
                    .when(new TodoUpdated(1, TodoStatus.DONE, null, null))
                    .then(s -> assertThat(s.planning().todos()).containsExactly(
                            new Todo(1, "a", TodoStatus.DONE, "first note")));
            given(CREATED, new TodoAdded(1, "a")).when(new TodoUpdated(9, TodoStatus.DONE, "x", null))
                    .thenComparedTo((before, after) -> assertThat(after.planning()).isEqualTo(before.planning()));
        }
    }

    @Nested
    class Plans {
        @Test
        void a_created_plan_is_active_with_every_step_pending_or_proposed_when_it_awaits_approval() {
            given(CREATED).when(PLAN).then(s -> {
                assertThat(plan(s)).isEqualTo(new Plan(1, "ship", List.of(new PlanStep("build", StepStatus.PENDING,
                        null, null), new PlanStep("test", StepStatus.PENDING, null, null)), PlanStatus.ACTIVE, "c1",
                        null));
                assertThat(plan(s).currentStep()).isEqualTo(1);
            });
            given(CREATED).when(PROPOSED).then(s -> {
                assertThat(plan(s).status()).isEqualTo(PlanStatus.PROPOSED);
                assertThat(plan(s).currentStep()).isZero();
            });
        }

        @Test
        void the_approval_of_the_plans_call_activates_it_and_a_denial_rejects_it_with_the_note() {
            given(planAwaitingApproval()).when(new ApprovalDecided("c1", ApprovalDecision.APPROVED, null, "ada"))
                    .then(s -> assertThat(plan(s).status()).isEqualTo(PlanStatus.ACTIVE))
                    .then(s -> assertThat(s.planning().holdsTools()).isFalse());
            given(planAwaitingApproval()).when(new ApprovalDecided("c1", ApprovalDecision.DENIED, "too big", "ada"))
                    .then(s -> assertThat(plan(s).status()).isEqualTo(PlanStatus.REJECTED))
                    .then(s -> assertThat(plan(s).note()).isEqualTo("too big"));
            given(planAwaitingApproval()).when(new ApprovalDecided("c1", ApprovalDecision.EXPIRED, null, null))
                    .then(s -> assertThat(plan(s).status()).isEqualTo(PlanStatus.REJECTED));
        }

        @Test
        void the_decision_on_another_call_leaves_the_plan_alone() {
            given(planAwaitingApproval()).when(new ApprovalDecided("c9", ApprovalDecision.APPROVED, null, "ada"))
                    .then(s -> assertThat(plan(s).status()).isEqualTo(PlanStatus.PROPOSED));
        }

        @Test
        void a_completed_step_keeps_its_evidence_and_the_last_one_completes_the_plan() {
            given(CREATED, PLAN).when(new PlanStepCompleted(1, 1, "BUILD SUCCESS")).then(s -> {
                assertThat(plan(s).steps().getFirst()).isEqualTo(new PlanStep("build", StepStatus.DONE,
                        "BUILD SUCCESS", null));
                assertThat(plan(s).currentStep()).isEqualTo(2);
                assertThat(plan(s).status()).isEqualTo(PlanStatus.ACTIVE);
            });
            given(CREATED, PLAN, new PlanStepCompleted(1, 1, "ok")).when(new PlanStepCompleted(1, 2, "green"))
                    .then(s -> assertThat(plan(s).status()).isEqualTo(PlanStatus.COMPLETED));
        }

        @Test
        void a_skipped_step_keeps_its_reason_and_counts_as_over() {
            given(CREATED, PLAN, new PlanStepCompleted(1, 1, "ok")).when(new PlanAdvanced(1, 2, "no tests here"))
                    .then(s -> assertThat(plan(s).steps().get(1)).isEqualTo(new PlanStep("test", StepStatus.SKIPPED,
                            null, "no tests here")))
                    .then(s -> assertThat(plan(s).status()).isEqualTo(PlanStatus.COMPLETED));
        }

        @Test
        void an_event_for_another_plan_or_step_changes_nothing() {
            for (SessionEvent e : List.of(new PlanStepCompleted(2, 1, "x"), new PlanStepCompleted(1, 7, "x"),
                    new PlanAdvanced(1, 0, null), new PlanAborted(3, "x"))) {
                given(CREATED, PLAN).when(e)
                        .thenComparedTo((before, after) -> assertThat(after.planning()).isEqualTo(before.planning()));
            }
        }

        @Test
        void an_aborted_plan_keeps_the_reason() {
            given(CREATED, PLAN).when(new PlanAborted(1, "wrong approach")).then(s -> {
                assertThat(plan(s).status()).isEqualTo(PlanStatus.ABORTED);
                assertThat(plan(s).note()).isEqualTo("wrong approach");
            });
        }

        @Test
        void a_plan_still_proposed_when_its_turn_ends_is_aborted_and_an_active_one_goes_on() {
            given(planAwaitingApproval()).when(new TurnEnded(TurnOutcome.CANCELLED, null, "cancelled"))
                    .then(s -> assertThat(plan(s).status()).isEqualTo(PlanStatus.ABORTED));
            given(CREATED, new UserMessagePosted("go"), PLAN).when(new TurnEnded(TurnOutcome.COMPLETED, "ok", null))
                    .then(s -> assertThat(plan(s).status()).isEqualTo(PlanStatus.ACTIVE));
        }
    }

    @Nested
    class TaskStates {
        @Test
        void an_update_merges_into_the_checkpoint_and_the_latest_report_of_an_item_wins() {
            given(CREATED, new TaskStateUpdated("resize", 4, List.of("a", "b"), List.of("c"), "started"))
                    .when(new TaskStateUpdated(null, null, List.of("c"), List.of("b"), null))
                    .then(s -> assertThat(s.planning().taskState()).isEqualTo(new TaskState("resize", 4,
                            List.of("a", "c"), List.of("b"), "started", FoldScenario.time(3))));
        }

        @Test
        void a_reconciliation_renames_and_drops_items_without_making_duplicates() {
            given(CREATED, new TaskStateUpdated("move", null, List.of("x/a", "x/b", "y/b"), List.of("x/c"), null))
                    .when(new TaskReconciled(Map.of("x/a", "y/a", "x/b", "y/b"), List.of("x/c")))
                    .then(s -> assertThat(s.planning().taskState().done()).containsExactly("y/a", "y/b"))
                    .then(s -> assertThat(s.planning().taskState().failed()).isEmpty());
        }

        @Test
        void a_reconciliation_before_any_checkpoint_changes_nothing() {
            given(CREATED).when(new TaskReconciled(Map.of("a", "b"), List.of()))
                    .then(s -> assertThat(s.planning().taskState()).isNull());
        }
    }

    @Test
    void a_fork_keeps_the_todos_the_plan_and_the_task_state_but_not_a_proposed_plans_approval() {
        List<EventEnvelope> source = new ArrayList<>();
        for (SessionEvent e : planAwaitingApproval()) {
            source.add(FoldScenario.envelope(source.size() + 1, e));
        }
        source.add(FoldScenario.envelope(source.size() + 1, new TodoAdded(1, "a")));
        SessionState at = SessionFold.fold(FoldScenario.SESSION, source);

        given().when(new SessionForked(FoldScenario.SESSION, at.lastSeq(), null, "fork", at)).then(s -> {
            assertThat(s.planning().planFirst()).isTrue();
            assertThat(s.planning().todos()).hasSize(1);
            assertThat(plan(s).status()).isEqualTo(PlanStatus.ABORTED);
            assertThat(s.pendingApprovals()).isEmpty();
        });
    }

    @Test
    void a_state_with_planning_survives_its_json_as_snapshots_and_forks_carry_it() throws Exception {
        SessionState s = given(CREATED, new PlanFirstChanged(true, "ada"), PLAN, new TodoAdded(1, "a"),
                new PlanStepCompleted(1, 1, "ok"))
                .when(new TaskStateUpdated("t", 2, List.of("i"), List.of(), null)).state();

        JsonNode json = Json.mapper().valueToTree(s);
        assertThat(json.get("planning").get("plan").get("steps").get(0).get("evidence").asText()).isEqualTo("ok");
        assertThat(Json.mapper().treeToValue(json, SessionState.class)).isEqualTo(s);
    }
}
