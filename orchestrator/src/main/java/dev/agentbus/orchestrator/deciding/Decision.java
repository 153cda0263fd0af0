package dev.agentbus.orchestrator.deciding;

import dev.agentbus.events.session.SessionEvent;
import dev.agentbus.events.state.SessionState;

import java.util.List;

/**
 * What the decider made of one input: the events to append (possibly none), the effects to run once they are
 * committed, the state after the events, and — when nothing is appended — why the input was ignored; and the inputs
 * to send to other sessions in the same transaction as the events ({@link Outgoing}: sub-agents).
 */
public record Decision(List<SessionEvent> events, List<Effect> effects, SessionState state, String ignoredBecause,
                       List<Outgoing> outgoing) {
    public Decision {
        events = List.copyOf(events);
        effects = List.copyOf(effects);
        outgoing = outgoing == null ? List.of() : List.copyOf(outgoing);
    }

    public Decision(List<SessionEvent> events, List<Effect> effects, SessionState state, String ignoredBecause) {
        this(events, effects, state, ignoredBecause, List.of());
    }
}
