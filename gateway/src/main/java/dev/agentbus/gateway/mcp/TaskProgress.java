package dev.agentbus.gateway.mcp;

import dev.agentbus.events.session.EventEnvelope;
import dev.agentbus.events.session.SessionEvent.ApprovalRequested;
import dev.agentbus.events.session.SessionEvent.InputRejected;
import dev.agentbus.events.session.SessionEvent.SessionDeleted;
import dev.agentbus.events.session.SessionEvent.TurnEnded;
import dev.agentbus.events.session.SessionEvent.UserMessagePosted;
import dev.agentbus.events.session.TurnOutcome;
import dev.agentbus.events.state.PendingApproval;
import dev.agentbus.events.state.SessionState;
import dev.agentbus.events.state.SessionStatus;

import java.util.List;
import java.util.Optional;

/**
 * Where a task of the MCP server stands, from the session's events as they come: the turn it waits for has ended
 * (with the agent's final answer), stopped at a call that needs a person's approval, or never began because the
 * orchestrator refused the message. Pure and given events one at a time, so its rules are tested without a stack;
 * the caller serialises the calls.
 *
 * <p>A task that has just begun stops waiting at its first call that needs an approval: nobody on the MCP side can
 * decide it, and the person who can (web UI, CLI, {@code POST …/approvals/{callId}}) may take hours, so
 * {@code run_task} says so at once. Following a turn already under way ({@code await_task}) waits through approvals
 * instead: that is the wait for a person's decision, held until it comes or the wait runs out.
 */
final class TaskProgress {

    /** How far the turn came. */
    sealed interface Outcome {
        /** The turn is over: {@code answer} is the agent's final answer (null when it gave none). */
        record Ended(TurnOutcome outcome, String answer, String message) implements Outcome {
        }

        /** The turn holds until a person decides these calls. */
        record AwaitingApproval(List<PendingApproval> approvals) implements Outcome {
        }

        /** The turn never began, or the session went away: why. */
        record Refused(String reason) implements Outcome {
        }
    }

    private final String inputId;
    /** From the event our message caused on (or at once, when following a turn already under way). */
    private boolean begun;
    private final boolean stopAtApproval;
    private boolean over;

    private TaskProgress(String inputId, boolean begun, boolean stopAtApproval) {
        this.inputId = inputId;
        this.begun = begun;
        this.stopAtApproval = stopAtApproval;
    }

    /** Follows the turn that the message input {@code inputId} starts; what comes before it is someone else's. */
    static TaskProgress ofMessage(String inputId) {
        return new TaskProgress(inputId, false, true);
    }

    /** Follows whatever turn is under way, through its approvals, to its end. */
    static TaskProgress ofRunningTurn() {
        return new TaskProgress(null, true, false);
    }

    /**
     * Where a session stands now, for a wait that starts on a session that may have nothing running: the last turn's
     * end for an idle one; empty while a turn runs, waits for a time or for an approval.
     */
    static Optional<Outcome> of(SessionState state) {
        return switch (state.status()) {
            case IDLE -> Optional.of(new Outcome.Ended(state.lastOutcome(), state.lastAnswer(), state.lastError()));
            case DELETED, NEW -> Optional.of(new Outcome.Refused("session " + state.sessionId() + " is gone"));
            case RUNNING, WAITING, AWAITING_APPROVAL -> Optional.empty();
        };
    }

    /**
     * Where a turn stands when the wait for it ran out: held for approvals (which say what it waits for), else
     * still running.
     */
    static Optional<Outcome> stillOpen(SessionState state) {
        return state.status() == SessionStatus.AWAITING_APPROVAL
                ? Optional.of(new Outcome.AwaitingApproval(state.pendingApprovals())) : Optional.empty();
    }

    /** The outcome this event brings, once; nothing before it and nothing after the first one. */
    Optional<Outcome> onEvent(EventEnvelope envelope) {
        if (over) {
            return Optional.empty();
        }
        if (!begun) {
            // Someone else's message may have started a turn just before ours, which is then refused: wait for the
            // turn ours began, or for its refusal.
            if (envelope.event() instanceof UserMessagePosted && inputId.equals(envelope.causationId())) {
                begun = true;
            } else if (envelope.event() instanceof InputRejected rejected && inputId.equals(rejected.inputId())) {
                return end(new Outcome.Refused("the message was refused: " + rejected.reason()));
            } else if (envelope.event() instanceof SessionDeleted) {
                return end(new Outcome.Refused("session " + envelope.sessionId() + " was deleted"));
            }
            return Optional.empty();
        }
        return switch (envelope.event()) {
            case TurnEnded ended -> end(new Outcome.Ended(ended.outcome(), ended.answer(), ended.message()));
            case ApprovalRequested asked when stopAtApproval -> end(new Outcome.AwaitingApproval(List.of(new PendingApproval(
                    asked.callId(), asked.tool(), asked.arguments(), asked.risk(), asked.reason(), asked.expiresAt()))));
            case SessionDeleted deleted -> end(new Outcome.Refused("session " + envelope.sessionId()
                    + " was deleted"));
            default -> Optional.empty(); // model calls, tool calls, waits: the turn goes on
        };
    }

    private Optional<Outcome> end(Outcome outcome) {
        over = true;
        return Optional.of(outcome);
    }
}
