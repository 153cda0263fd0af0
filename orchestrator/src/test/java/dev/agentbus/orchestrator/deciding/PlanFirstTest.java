package dev.agentbus.orchestrator.deciding;

import dev.agentbus.events.input.SessionInput.CancelTurn;
import dev.agentbus.events.input.SessionInput.CreateSession;
import dev.agentbus.events.input.SessionInput.DecideApproval;
import dev.agentbus.events.input.SessionInput.ExpireApproval;
import dev.agentbus.events.input.SessionInput.PostUserMessage;
import dev.agentbus.events.input.SessionInput.SetPermissionMode;
import dev.agentbus.events.planning.PlanStatus;
import dev.agentbus.events.session.ApprovalDecision;
import dev.agentbus.events.session.PermissionMode;
import dev.agentbus.events.session.SessionEvent.ApprovalDecided;
import dev.agentbus.events.session.SessionEvent.ApprovalRequested;
import dev.agentbus.events.session.SessionEvent.ModelCallStarted;
import dev.agentbus.events.session.SessionEvent.PermissionModeChanged;
import dev.agentbus.events.session.SessionEvent.PlanCreated;
import dev.agentbus.events.session.SessionEvent.PlanFirstChanged;
import dev.agentbus.events.session.SessionEvent.PlanStepCompleted;
import dev.agentbus.events.session.SessionEvent.SessionCreated;
import dev.agentbus.events.session.SessionEvent.TodoAdded;
import dev.agentbus.events.session.SessionEvent.ToolCallCompleted;
import dev.agentbus.events.session.SessionEvent.ToolCallRequested;
import dev.agentbus.events.session.SessionEvent.TurnEnded;
import dev.agentbus.events.session.SessionEvent.UserMessagePosted;
import dev.agentbus.events.session.SessionEvent.WaitScheduled;
import dev.agentbus.events.session.TurnOutcome;
import dev.agentbus.events.state.PendingApproval;
import dev.agentbus.events.state.SessionStatus;
import dev.agentbus.events.tools.Risk;
import org.junit.jupiter.api.Test;

import java.util.List;

import static dev.agentbus.orchestrator.deciding.DeciderFixture.APPROVAL_TIMEOUT;
import static dev.agentbus.orchestrator.deciding.DeciderFixture.NOW;
import static dev.agentbus.orchestrator.deciding.DeciderFixture.given;
import static dev.agentbus.orchestrator.deciding.PlanningToolsTest.asked;
import static dev.agentbus.orchestrator.deciding.PlanningToolsTest.call;
import static dev.agentbus.orchestrator.deciding.PlanningToolsTest.calls;
import static dev.agentbus.orchestrator.deciding.PlanningToolsTest.resultOf;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Plan-first mode in the decider: no tool but the planning tools runs before the user approved a plan, and the
 * plan's approval is the approval of its plan_create call. Given events, when an input, then events.
 */
class PlanFirstTest {
    private static final String PLAN_ARGS = "{\"title\":\"fix it\",\"steps\":[\"read\",\"edit\"]}";
    private static final String REASON = "plan-first mode: the plan waits for your approval before any tool runs";
    private static final String WRITE_ARGS = "{\"path\":\"a.txt\",\"content\":\"hi\"}";

    /** A plan-first session in {@code mode} with a turn awaiting model call r1. */
    private static DeciderFixture turnAwaiting(PermissionMode mode) {
        return given(new SessionCreated("t", mode), new PlanFirstChanged(true, "alice"), new UserMessagePosted("go"),
                new ModelCallStarted("r1", 1));
    }

    /** A plan-first session whose model proposed plan c1 (two steps), now awaiting the user. */
    private static DeciderFixture planAwaiting(PermissionMode mode) {
        return turnAwaiting(mode).and(asked("r1", call("c1", "plan_create", PLAN_ARGS)),
                new PlanCreated(1, "fix it", List.of("read", "edit"), "c1", true),
                new ApprovalRequested("c1", "plan_create", PLAN_ARGS, Risk.LOW, REASON, NOW.plus(APPROVAL_TIMEOUT)));
    }

    @Test
    void a_session_created_plan_first_records_it_right_after_its_creation() {
        Decision d = given().when(new CreateSession("t", null, true));

        assertThat(d.events()).containsExactly(new SessionCreated("t", PermissionMode.AUTO),
                new PlanFirstChanged(true, DeciderFixture.USER));
        assertThat(d.state().planning().planFirst()).isTrue();
        assertThat(given().when(new CreateSession("t")).events()).hasSize(1);
    }

    @Test
    void before_a_plan_is_approved_only_the_planning_tools_run_and_the_others_are_answered_not_run() {
        Decision d = turnAwaiting(PermissionMode.AUTO).when(calls("r1", call("c1", "write", WRITE_ARGS),
                call("c2", "wait", "{\"seconds\":5}"), call("c3", "todo_add", "{\"text\":\"plan first\"}")));

        assertThat(d.events()).noneMatch(e -> e instanceof ToolCallRequested || e instanceof WaitScheduled);
        assertThat(resultOf(d, "c1").ok()).isFalse();
        assertThat(resultOf(d, "c1").error()).startsWith("not run: plan-first mode. Propose a plan with plan_create")
                .contains("before using write");
        assertThat(resultOf(d, "c2").error()).startsWith("not run: plan-first mode.");
        assertThat(resultOf(d, "c3").ok()).isTrue();
        assertThat(d.events()).contains(new TodoAdded(1, "plan first"));
        assertThat(d.effects()).as("every call is answered: the model hears why").hasSize(1);
    }

    @Test
    void a_proposed_plan_waits_for_the_user_as_a_pending_approval_and_holds_the_turn() {
        Decision d = turnAwaiting(PermissionMode.AUTO).when(calls("r1", call("c1", "plan_create", PLAN_ARGS),
                call("c2", "write", WRITE_ARGS)));

        assertThat(d.events().subList(1, 3)).containsExactly(
                new PlanCreated(1, "fix it", List.of("read", "edit"), "c1", true),
                new ApprovalRequested("c1", "plan_create", PLAN_ARGS, Risk.LOW, REASON, NOW.plus(APPROVAL_TIMEOUT)));
        assertThat(resultOf(d, "c2").error()).startsWith("not run: plan-first mode, and the plan waits for the user's "
                + "approval");
        assertThat(d.state().status()).isEqualTo(SessionStatus.AWAITING_APPROVAL);
        assertThat(d.state().pendingApprovals()).containsExactly(new PendingApproval("c1", "plan_create", PLAN_ARGS,
                Risk.LOW, REASON, NOW.plus(APPROVAL_TIMEOUT)));
        assertThat(d.state().planning().plan().status()).isEqualTo(PlanStatus.PROPOSED);
        assertThat(d.effects()).as("the model waits for the decision").isEmpty();
    }

    @Test
    void a_second_plan_in_the_same_reply_is_refused_since_one_already_waits() {
        Decision d = turnAwaiting(PermissionMode.AUTO).when(calls("r1", call("c1", "plan_create", PLAN_ARGS),
                call("c2", "plan_create", "{\"steps\":[\"other\"]}")));

        assertThat(resultOf(d, "c2").error()).isEqualTo("plan #1 already waits for the user's approval; propose one "
                + "plan at a time");
        assertThat(d.state().pendingApprovals()).extracting(PendingApproval::callId).containsExactly("c1");
        assertThat(d.state().planning().plan().callId()).isEqualTo("c1");
    }

    @Test
    void an_approved_plan_is_active_its_call_says_so_and_the_model_goes_to_work() {
        Decision d = planAwaiting(PermissionMode.AUTO).when(new DecideApproval("c1", ApprovalDecision.APPROVED, null));

        assertThat(d.events()).hasSize(3);
        assertThat(d.events().get(0)).isEqualTo(new ApprovalDecided("c1", ApprovalDecision.APPROVED, null, "alice"));
        assertThat(resultOf(d, "c1").ok()).isTrue();
        assertThat(resultOf(d, "c1").output()).startsWith("The plan is approved by the user alice.");
        assertThat(d.events().get(2)).isInstanceOf(ModelCallStarted.class);
        assertThat(d.state().planning().plan().status()).isEqualTo(PlanStatus.ACTIVE);
        assertThat(d.state().status()).isEqualTo(SessionStatus.RUNNING);
    }

    @Test
    void once_the_plan_is_approved_other_tools_run_under_the_permission_mode_as_usual() {
        DeciderFixture approved = planAwaiting(PermissionMode.NORMAL).and(
                new ApprovalDecided("c1", ApprovalDecision.APPROVED, null, "alice"),
                new ToolCallCompleted("c1", true, "approved", null, null, false, 0, false),
                new ModelCallStarted("r2", 2));

        Decision d = approved.when(calls("r2", call("c2", "read", "{\"path\":\"a.txt\"}"),
                call("c3", "write", WRITE_ARGS)));

        assertThat(d.events()).contains(new ToolCallRequested("c2", "read", "{\"path\":\"a.txt\"}"));
        assertThat(d.events()).anySatisfy(e -> assertThat(e).isInstanceOfSatisfying(ApprovalRequested.class,
                a -> assertThat(a.callId()).isEqualTo("c3")));
    }

    @Test
    void a_rejected_plan_tells_the_model_the_note_and_tools_stay_held() {
        DeciderFixture f = planAwaiting(PermissionMode.AUTO);
        Decision d = f.when(new DecideApproval("c1", ApprovalDecision.DENIED, "add a test step"));

        assertThat(resultOf(d, "c1").ok()).isFalse();
        assertThat(resultOf(d, "c1").error()).isEqualTo("The plan was rejected by the user alice with the note: add a "
                + "test step. Propose a revised plan with plan_create before using other tools.");
        assertThat(d.state().planning().plan().status()).isEqualTo(PlanStatus.REJECTED);
        assertThat(d.state().planning().plan().note()).isEqualTo("add a test step");
        assertThat(d.state().planning().holdsTools()).isTrue();
        assertThat(d.effects()).singleElement().isInstanceOf(Effect.CallModel.class);
    }

    @Test
    void a_revised_plan_after_a_rejection_gets_the_next_number_and_waits_again() {
        DeciderFixture rejected = planAwaiting(PermissionMode.AUTO).and(
                new ApprovalDecided("c1", ApprovalDecision.DENIED, "no", "alice"),
                new ToolCallCompleted("c1", false, null, "rejected", null, false, 0, false),
                new ModelCallStarted("r2", 2));

        Decision d = rejected.when(calls("r2", call("c2", "plan_create", "{\"steps\":[\"read\",\"test\",\"edit\"]}")));

        assertThat(d.events().get(1)).isEqualTo(new PlanCreated(2, null, List.of("read", "test", "edit"), "c2", true));
        assertThat(d.state().status()).isEqualTo(SessionStatus.AWAITING_APPROVAL);
    }

    @Test
    void a_plan_nobody_approved_in_time_expires_as_rejected() {
        Decision d = planAwaiting(PermissionMode.AUTO).when(new ExpireApproval("c1"));

        assertThat(d.events().getFirst()).isEqualTo(new ApprovalDecided("c1", ApprovalDecision.EXPIRED, null, null));
        assertThat(resultOf(d, "c1").error()).startsWith("Nobody approved the plan before its approval expired at "
                + NOW.plus(APPROVAL_TIMEOUT));
        assertThat(d.state().planning().plan().status()).isEqualTo(PlanStatus.REJECTED);
    }

    @Test
    void a_mode_change_never_approves_a_plan() {
        Decision d = planAwaiting(PermissionMode.MANUAL).when(new SetPermissionMode(PermissionMode.AUTO));

        assertThat(d.events()).containsExactly(new PermissionModeChanged(PermissionMode.AUTO, "alice"));
        assertThat(d.state().status()).isEqualTo(SessionStatus.AWAITING_APPROVAL);
        assertThat(d.state().planning().plan().status()).isEqualTo(PlanStatus.PROPOSED);
    }

    @Test
    void always_approves_the_plan_and_lets_later_plans_of_the_session_start_without_asking() {
        DeciderFixture always = planAwaiting(PermissionMode.AUTO).and(
                new ApprovalDecided("c1", ApprovalDecision.ALWAYS, null, "alice"),
                new ToolCallCompleted("c1", true, "approved", null, null, false, 0, false),
                new PlanStepCompleted(1, 1, "read"), new PlanStepCompleted(1, 2, "edited"),
                new ModelCallStarted("r2", 2));

        Decision d = always.when(calls("r2", call("c2", "plan_create", "{\"steps\":[\"more\"]}")));

        assertThat(d.events().get(1)).isEqualTo(new PlanCreated(2, null, List.of("more"), "c2", false));
        assertThat(d.state().planning().plan().status()).isEqualTo(PlanStatus.ACTIVE);
    }

    @Test
    void once_the_approved_plan_is_complete_tools_are_held_again_until_the_next_plan() {
        DeciderFixture done = planAwaiting(PermissionMode.AUTO).and(
                new ApprovalDecided("c1", ApprovalDecision.APPROVED, null, "alice"),
                new ToolCallCompleted("c1", true, "approved", null, null, false, 0, false),
                new PlanStepCompleted(1, 1, "read"), new PlanStepCompleted(1, 2, "edited"),
                new ModelCallStarted("r2", 2));

        Decision d = done.when(calls("r2", call("c2", "write", WRITE_ARGS)));

        assertThat(resultOf(d, "c2").error()).startsWith("not run: plan-first mode.").endsWith("the last plan is completed");
    }

    @Test
    void a_message_while_the_plan_waits_rejects_it_and_joins_the_turn() {
        Decision d = planAwaiting(PermissionMode.AUTO).when(new PostUserMessage("actually, just explain the bug"));

        assertThat(d.events().getFirst()).isEqualTo(new ApprovalDecided("c1", ApprovalDecision.DENIED,
                TurnInterruptions.WOKEN_NOTE, "alice"));
        assertThat(d.state().planning().plan().status()).isEqualTo(PlanStatus.REJECTED);
        assertThat(d.events()).contains(new UserMessagePosted("actually, just explain the bug"));
        assertThat(d.state().status()).isEqualTo(SessionStatus.RUNNING);
    }

    @Test
    void a_cancel_while_the_plan_waits_answers_its_call_and_aborts_the_plan() {
        Decision d = planAwaiting(PermissionMode.AUTO).when(new CancelTurn());

        assertThat(resultOf(d, "c1").ok()).isFalse();
        assertThat(d.events().getLast()).isInstanceOfSatisfying(TurnEnded.class,
                t -> assertThat(t.outcome()).isEqualTo(TurnOutcome.CANCELLED));
        assertThat(d.state().planning().plan().status()).isEqualTo(PlanStatus.ABORTED);
        assertThat(d.state().pendingApprovals()).isEmpty();
    }
}
