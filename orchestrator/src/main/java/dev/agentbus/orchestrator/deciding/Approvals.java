package dev.agentbus.orchestrator.deciding;

import dev.agentbus.events.Json;
import dev.agentbus.events.session.ApprovalDecision;
import dev.agentbus.events.session.SessionEvent.ApprovalDecided;
import dev.agentbus.events.session.SessionEvent.ApprovalRequested;
import dev.agentbus.events.session.SessionEvent.ToolCallCompleted;
import dev.agentbus.events.session.SessionEvent.ToolCallRequested;
import dev.agentbus.events.state.PendingApproval;
import dev.agentbus.events.state.SessionState;
import dev.agentbus.events.state.ToolCallView;
import dev.agentbus.events.tools.ToolSpec;
import dev.agentbus.orchestrator.deciding.mcp.McpTools;
import dev.agentbus.orchestrator.deciding.planning.PlanFirst;

import java.io.IOException;
import java.util.List;
import java.util.Locale;

/**
 * The decider's rules for calls that wait for a person: asking ({@code approval.requested.v1}), deciding (approved,
 * denied, always, expired), and the calls held behind one that waits, which go to the worker in the order the model
 * asked once nothing before them waits any more. Which calls need approval is the permission mode's business
 * ({@code SessionState.requiresApproval}); this is what happens once they do.
 */
final class Approvals {
    private Approvals() {
    }

    /**
     * Records a decision on a pending approval: an allowed call is requested from the worker (once the calls before
     * it are decided), a refused one is answered with an error that tells the model why, and the turn goes on as
     * after any result.
     */
    static void decide(Step step, PendingApproval pending, ApprovalDecision decision, String note, String by) {
        boolean plan = PlanFirst.isPlanApproval(step.state, pending);
        step.emit(new ApprovalDecided(pending.callId(), decision, note, by));
        if (decision == ApprovalDecision.ALWAYS) {
            for (PendingApproval other : step.state.pendingApprovals()) {
                if (other.tool().equals(pending.tool())) {
                    step.emit(new ApprovalDecided(other.callId(), ApprovalDecision.APPROVED,
                            pending.tool() + " is allowed for the rest of the session", by));
                }
            }
        }
        if (plan) {
            // A plan_create call has nothing to run: the decision itself is its answer.
            step.emit(PlanFirst.decided(pending, decision, note, by));
        } else if (!decision.allows()) {
            String why = decision == ApprovalDecision.EXPIRED
                    ? "not run: nobody approved this call before its approval expired at " + pending.expiresAt()
                    : "not run: " + (by == null ? "the user" : "the user " + by) + " denied this call"
                            + (note == null ? "" : " with the note: " + note);
            step.emit(new ToolCallCompleted(pending.callId(), false, null, why, null, false, 0, false));
        }
        releaseHeldCalls(step);
        step.continueIfAllAnswered();
    }

    /**
     * Sends the turn's calls that were held back to the worker, in the order the model asked, up to the first one
     * still awaiting a person: approved calls, and calls that needed no approval but came after one that did.
     */
    static void releaseHeldCalls(Step step) {
        SessionState s = step.state;
        if (s.turn() == null) {
            return;
        }
        for (String callId : s.turn().openToolCalls()) {
            if (s.pendingApproval(callId).isPresent()) {
                return;
            }
            if (isHeld(s, callId)) {
                // Approved, or asked for when the mode did not ask about it: a later, stricter mode applies to the
                // calls the model asks for after it, not to these.
                ToolCallView view = s.toolCalls().get(callId);
                step.emit(new ToolCallRequested(callId, view.name(), normalized(view.arguments()), step.state.shell(),
                        false));
            }
        }
    }

    /** The call waits for a person, until the approval time-out from now; the reason says why, for that person. */
    static void request(Step step, String callId, ToolSpec tool, String arguments) {
        step.emit(new ApprovalRequested(callId, tool.name(), arguments, tool.risk(),
                step.state.permissionMode().wireName() + " mode: " + tool.name() + " " + tool.risk().meaning()
                        + " (" + tool.risk().name().toLowerCase(Locale.ROOT) + " risk)",
                step.ctx.now().plus(step.ctx.approvalTimeout())));
    }

    /** The arguments as dispatch sends them: compact JSON ({} when absent). A held call was checked to be an object. */
    private static String normalized(String arguments) {
        try {
            return Json.mapper().readTree(arguments == null || arguments.isBlank() ? "{}" : arguments).toString();
        } catch (IOException e) {
            return arguments;
        }
    }

    /** The turn's calls that never went to a worker: awaiting approval, or held behind one. */
    static List<String> heldOrAwaiting(SessionState s) {
        if (s.turn() == null) {
            return List.of();
        }
        return s.turn().openToolCalls().stream()
                .filter(id -> s.pendingApproval(id).isPresent() || isHeld(s, id)).toList();
    }

    /** A sandbox call of the model that is neither sent to a worker, nor awaiting approval, nor answered. */
    private static boolean isHeld(SessionState s, String callId) {
        ToolCallView view = s.toolCalls().get(callId);
        return view != null && view.status() == ToolCallView.Status.PROPOSED && !view.byUser()
                && s.pendingApproval(callId).isEmpty()
                && McpTools.find(s, view.name()).map(t -> t.executor() == ToolSpec.Executor.SANDBOX).orElse(false);
    }
}
