package dev.agentbus.orchestrator.deciding.delegating;

import dev.agentbus.events.input.SessionInput.RecordSubAgentResult;
import dev.agentbus.events.session.SessionEvent;
import dev.agentbus.events.session.SessionEvent.SubAgentFinished;
import dev.agentbus.events.session.SessionEvent.ToolCallCompleted;
import dev.agentbus.events.session.TurnOutcome;
import dev.agentbus.events.state.SessionState;
import dev.agentbus.events.state.SubAgents;
import dev.agentbus.events.state.ToolCallView;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The parent's rule for a child's result ({@code record_sub_agent_result.v1}): recorded once, as
 * {@code sub_agent.finished.v1} and the {@code task} call's result. The child's answer is the call's output; a child
 * that did not complete (cancelled, at its iteration cap, a failed model call, a loop) gives a failed result that says
 * so, with whatever it answered. A repeat, or a result for a child this session does not wait for, changes nothing.
 */
public final class SubAgentResults {
    private SubAgentResults() {
    }

    /** The events that record the result, or empty when it is not awaited (then the input is ignored). */
    public static Optional<List<SessionEvent>> record(SessionState parent, RecordSubAgentResult r) {
        Optional<SubAgents.Child> child = r.callId() == null ? Optional.empty()
                : parent.subAgents().byCall(r.callId());
        if (child.isEmpty() || !child.get().running() || !child.get().sessionId().equals(r.childSessionId())) {
            return Optional.empty();
        }
        TurnOutcome outcome = r.outcome() == null ? TurnOutcome.ERROR : r.outcome();
        List<SessionEvent> events = new ArrayList<>();
        events.add(new SubAgentFinished(r.callId(), r.childSessionId(), outcome));
        ToolCallView call = parent.toolCalls().get(r.callId());
        if (call != null && call.status() != ToolCallView.Status.COMPLETED) {
            events.add(outcome == TurnOutcome.COMPLETED
                    ? new ToolCallCompleted(r.callId(), true, r.answer() == null ? "" : r.answer(), null, null, false,
                    0, false)
                    : new ToolCallCompleted(r.callId(), false, r.answer(), "the sub-agent " + r.childSessionId()
                    + " did not finish: " + outcome.name().toLowerCase(java.util.Locale.ROOT).replace('_', ' ')
                    + (r.message() == null ? "" : " (" + r.message() + ")"), null, false, 0, false));
        }
        return Optional.of(events);
    }
}
