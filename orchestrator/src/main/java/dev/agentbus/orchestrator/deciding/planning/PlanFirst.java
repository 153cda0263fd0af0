package dev.agentbus.orchestrator.deciding.planning;

import dev.agentbus.events.planning.Planning;
import dev.agentbus.events.session.ApprovalDecision;
import dev.agentbus.events.session.SessionEvent.ToolCallCompleted;
import dev.agentbus.events.state.PendingApproval;
import dev.agentbus.events.state.SessionState;
import dev.agentbus.events.tools.PlanningTools;
import dev.agentbus.events.tools.ToolSpec;

import java.util.Optional;

/**
 * Plan-first mode (LMAgent's {@code --plan}): the model proposes a plan, the user approves it, and only then do
 * tools other than the planning tools run. The plan's approval is an approval like any other: the
 * {@code plan_create} call waits in {@code pendingApprovals} (the session is AWAITING_APPROVAL), the user decides it
 * through the approvals route or {@code /plan/decision}, the scheduler expires it, a message wakes it. Only what the
 * model hears back differs, and that is decided here.
 */
public final class PlanFirst {
    /** What the person deciding reads in the pending approval. */
    static final String REASON = "plan-first mode: the plan waits for your approval before any tool runs";

    private PlanFirst() {
    }

    /**
     * Why a call of {@code tool} may not run now, for the model; empty when it may. In plan-first mode only the
     * planning tools run until the user approved a plan, and again once that plan is over.
     */
    public static Optional<String> refusal(SessionState state, ToolSpec tool) {
        Planning p = state.planning();
        if (!p.holdsTools() || PlanningTools.isPlanningTool(tool.name())) {
            return Optional.empty();
        }
        if (p.proposedPlan().isPresent()) {
            return Optional.of("not run: plan-first mode, and the plan waits for the user's approval; no tool other "
                    + "than the planning tools runs before it is approved");
        }
        return Optional.of("not run: plan-first mode. Propose a plan with plan_create (a title and its steps) and "
                + "wait for the user's approval before using " + tool.name() + " or any other tool"
                + (p.plan() == null ? "" : "; the last plan is " + p.plan().status().name().toLowerCase(java.util.Locale.ROOT)));
    }

    /** Whether the pending approval is the one of a proposed plan, whose answer {@link #decided} gives. */
    public static boolean isPlanApproval(SessionState state, PendingApproval pending) {
        return state.planning().isProposedPlanCall(pending.callId());
    }

    /**
     * The result of the {@code plan_create} call once the user decided the plan (or nobody did in time): approved,
     * the model goes to work on it; otherwise it hears why, with the person's note, and is asked for a better plan.
     */
    public static ToolCallCompleted decided(PendingApproval pending, ApprovalDecision decision, String note,
                                            String by) {
        String who = by == null ? "the user" : "the user " + by;
        String withNote = note == null ? "" : " with the note: " + note;
        return switch (decision) {
            case APPROVED, ALWAYS -> new ToolCallCompleted(pending.callId(), true, "The plan is approved by " + who
                    + withNote + ". Work through it step by step, and report each step with plan_complete_step and "
                    + "its evidence.", null, null, false, 0, false);
            case DENIED -> new ToolCallCompleted(pending.callId(), false, null, "The plan was rejected by " + who
                    + withNote + ". Propose a revised plan with plan_create before using other tools.", null, false,
                    0, false);
            case EXPIRED -> new ToolCallCompleted(pending.callId(), false, null, "Nobody approved the plan before its "
                    + "approval expired at " + pending.expiresAt() + ". Propose it again with plan_create, or finish "
                    + "with an answer that asks the user.", null, false, 0, false);
        };
    }
}
