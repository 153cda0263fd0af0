package dev.agentbus.orchestrator.deciding.delegating;

import dev.agentbus.events.input.SessionInput.StartSubAgent;
import dev.agentbus.events.session.PermissionMode;
import dev.agentbus.events.session.SessionEvent;
import dev.agentbus.events.session.SessionEvent.SessionCreated;
import dev.agentbus.events.session.SessionEvent.UserMessagePosted;
import dev.agentbus.events.session.SubAgentOf;
import dev.agentbus.events.state.SessionState;

import java.util.List;
import java.util.Optional;

/**
 * The child's rule for {@code start_sub_agent.v1}: the child is created with its parent link in its first event and
 * its task as its first message; the decider then starts its turn like any other. Its owner is the parent's (the
 * input carries the parent's user), its permission mode the parent's, so a child never may do what its parent may not
 * do without a person's approval; and it is incognito when its parent is.
 */
public final class ChildStart {
    private ChildStart() {
    }

    /** The child's first events, in order. */
    public static List<SessionEvent> events(StartSubAgent s) {
        return List.of(
                new SessionCreated(s.title() == null || s.title().isBlank() ? "Sub-agent" : s.title(),
                        s.mode() == null ? PermissionMode.AUTO : s.mode(),
                        new SubAgentOf(s.parentSessionId(), s.callId(), s.tools(), s.maxIterations()), s.incognito()),
                new UserMessagePosted(s.prompt()));
    }

    /**
     * Why the input starts nothing (then it is ignored): it is sent once, with the parent's {@code sub_agent.started.v1},
     * so a session that exists already has been started and is never started again.
     */
    public static Optional<String> notStarted(SessionState state, StartSubAgent s) {
        if (state.exists()) {
            return Optional.of("sub-agent " + state.sessionId() + " has started already");
        }
        if (s.parentSessionId() == null || s.callId() == null || s.prompt() == null || s.prompt().isBlank()) {
            return Optional.of("a sub-agent needs its parent, the parent's call and a prompt");
        }
        return Optional.empty();
    }
}
