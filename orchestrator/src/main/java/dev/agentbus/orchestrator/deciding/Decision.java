package dev.agentbus.orchestrator.deciding;

import dev.agentbus.events.session.SessionEvent;
import dev.agentbus.events.state.SessionState;

import java.util.List;

/**
 * What the decider made of one input: the events to append (possibly none), the effects to run once they are
 * committed, the state after the events, and — when nothing is appended — why the input was ignored.
 */
public record Decision(List<SessionEvent> events, List<Effect> effects, SessionState state, String ignoredBecause) {
    public Decision {
        events = List.copyOf(events);
        effects = List.copyOf(effects);
    }
}
