package dev.agentbus.orchestrator.deciding.delegating;

import dev.agentbus.events.input.SessionInput.CancelTurn;
import dev.agentbus.events.input.SessionInput.RecordSubAgentResult;
import dev.agentbus.events.session.SessionEvent;
import dev.agentbus.events.session.SessionEvent.TurnEnded;
import dev.agentbus.events.session.SubAgentOf;
import dev.agentbus.events.state.SessionState;
import dev.agentbus.events.state.SubAgents;
import dev.agentbus.orchestrator.deciding.Outgoing;

import java.util.ArrayList;
import java.util.List;

/**
 * What a decision tells the other sessions of its family, worked out from the events it records, so the message
 * goes out in the same transaction as the fact that caused it:
 * <ul>
 *   <li>a child whose first turn ended (the one its parent started) sends its parent the result, through the
 *       parent's inputs; only the parent's orchestrator writes the parent's log;</li>
 *   <li>a session whose turn ended while children still run (a cancel, a delete) cancels them: nobody would read
 *       their answers in this turn.</li>
 * </ul>
 */
public final class SubAgentMessages {
    private SubAgentMessages() {
    }

    /** @param after the session's state after the decision's events */
    public static List<Outgoing> after(SessionState after, List<SessionEvent> events) {
        List<Outgoing> out = new ArrayList<>();
        for (SessionEvent e : events) {
            if (!(e instanceof TurnEnded ended)) {
                continue;
            }
            SubAgentOf parent = after.subAgents().parent();
            // Turn 1 is the parent's task; a person may talk to the child afterwards, which the parent never awaits.
            if (parent != null && after.turns() == 1) {
                out.add(new Outgoing(parent.parentSessionId(), new RecordSubAgentResult(parent.callId(),
                        after.sessionId(), ended.outcome(), ended.answer(), ended.message())));
            }
            for (SubAgents.Child child : after.subAgents().running()) {
                out.add(new Outgoing(child.sessionId(), new CancelTurn()));
            }
        }
        return out;
    }
}
