package dev.agentbus.orchestrator.deciding;

import dev.agentbus.events.session.ApprovalDecision;
import dev.agentbus.events.session.SessionEvent.ApprovalDecided;
import dev.agentbus.events.session.SessionEvent.ToolCallCompleted;
import dev.agentbus.events.session.SessionEvent.TurnEnded;
import dev.agentbus.events.session.SessionEvent.WaitEnded;
import dev.agentbus.events.session.TurnOutcome;
import dev.agentbus.events.state.SessionState;

/**
 * What a person's cancel, delete or new message does to a turn under way: every call that will now never run is
 * answered, so each call of the log keeps its result, and whatever still runs is told to stop.
 */
final class TurnInterruptions {
    /** The note on the approvals a person's new message denies. */
    static final String WOKEN_NOTE = "the person sent a new message instead";

    private TurnInterruptions() {
    }

    /**
     * Ends the running turn as cancelled. Calls that never went to the worker (awaiting approval, or held behind one)
     * will never run: each gets its answer, so every call of the log stays paired with a result.
     */
    static void cancelTurn(Step step, String why) {
        for (String callId : Approvals.heldOrAwaiting(step.state)) {
            step.emit(new ToolCallCompleted(callId, false, null,
                    "not run: the turn was cancelled before this call was approved", null, false, 0, false));
        }
        String pendingRequest = step.state.turn() == null ? null : step.state.turn().pendingRequestId();
        step.emit(new TurnEnded(TurnOutcome.CANCELLED, null, why));
        if (pendingRequest != null) {
            step.effects.add(new Effect.StopModelCall(step.input.sessionId(), pendingRequest));
        }
    }

    /**
     * A person's message to a waiting turn ends what it waits for: the wait ends early (the wait tool's call is
     * answered as interrupted), pending approvals are denied and the calls held behind them answered "not run". The
     * person chose to talk rather than decide, and the model hears why from each call's result.
     */
    static void wake(Step step, String by) {
        SessionState s = step.state;
        for (String callId : Approvals.heldOrAwaiting(s)) {
            if (s.pendingApproval(callId).isPresent()) {
                step.emit(new ApprovalDecided(callId, ApprovalDecision.DENIED, WOKEN_NOTE, by));
                step.emit(new ToolCallCompleted(callId, false, null, "not run: " + WOKEN_NOTE
                        + " of deciding on this call", null, false, 0, false));
            } else {
                step.emit(new ToolCallCompleted(callId, false, null, "not run: the user sent a new message before "
                        + "this call was released", null, false, 0, false));
            }
        }
        if (s.pendingWait() != null) {
            step.emit(new WaitEnded(s.pendingWait().waitId(), true));
            if (s.pendingWait().callId() != null) {
                step.emit(new ToolCallCompleted(s.pendingWait().callId(), true, "The wait until "
                        + s.pendingWait().until() + " was interrupted at " + step.ctx.now()
                        + " by a message from the user.", null, null, false, 0, false));
            }
        }
    }
}
