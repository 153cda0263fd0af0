package dev.agentbus.events.state;

import dev.agentbus.events.session.SessionEvent.SessionCreated;
import dev.agentbus.events.session.SessionEvent.SubAgentFinished;
import dev.agentbus.events.session.SessionEvent.SubAgentStarted;

import java.util.ArrayList;
import java.util.List;

/**
 * The part of the fold that assigns {@link SubAgents}, apart from {@link SessionFold} so sub-agents change in one
 * place. Pure and assigning only: the decider checked the call and the child's result.
 */
final class SubAgentsFold {
    private SubAgentsFold() {
    }

    static SubAgents created(SubAgents s, SessionCreated e) {
        return e.subAgentOf() == null ? s : new SubAgents(e.subAgentOf(), s.children());
    }

    static SubAgents started(SubAgents s, SubAgentStarted e) {
        List<SubAgents.Child> children = new ArrayList<>(s.children());
        children.add(new SubAgents.Child(e.callId(), e.childSessionId(), e.description(), null));
        return new SubAgents(s.parent(), children);
    }

    static SubAgents finished(SubAgents s, SubAgentFinished e) {
        List<SubAgents.Child> children = new ArrayList<>(s.children());
        children.replaceAll(c -> c.callId().equals(e.callId()) && c.running()
                ? new SubAgents.Child(c.callId(), c.sessionId(), c.description(), e.outcome()) : c);
        return new SubAgents(s.parent(), children);
    }

    /**
     * A fork is nobody's child (no parent waits for it), and a child still running in the source reports to the
     * source, not to the fork, whose call to it is answered "not run": the fork keeps only the finished children.
     */
    static SubAgents forked(SubAgents from) {
        if (from == null) {
            return SubAgents.NONE;
        }
        return new SubAgents(null, from.children().stream().filter(c -> !c.running()).toList());
    }
}
