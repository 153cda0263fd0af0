package dev.agentbus.orchestrator.deciding.delegating;

import dev.agentbus.events.input.SessionInput.StartSubAgent;
import dev.agentbus.events.session.PermissionMode;
import dev.agentbus.events.session.SessionEvent;
import dev.agentbus.events.session.SessionEvent.SessionCreated;
import dev.agentbus.events.session.SessionEvent.UserMessagePosted;
import dev.agentbus.events.session.SubAgentOf;

import java.util.List;

/**
 * The child's rule for {@code start_sub_agent.v1}: the child is created with its parent link in its first event and
 * its task as its first message; the decider then starts its turn like any other. Its owner is the parent's (the
 * input carries the parent's user), its permission mode the parent's, so a child never may do what its parent may not
 * do without a person's approval.
 */
public final class ChildStart {
    private ChildStart() {
    }

    /** The child's first events, in order. */
    public static List<SessionEvent> events(StartSubAgent s) {
        return List.of(
                new SessionCreated(s.title() == null || s.title().isBlank() ? "Sub-agent" : s.title(),
                        s.mode() == null ? PermissionMode.AUTO : s.mode(),
                        new SubAgentOf(s.parentSessionId(), s.callId(), s.tools(), s.maxIterations())),
                new UserMessagePosted(s.prompt()));
    }

    /** Why the input cannot start a child (then it is ignored), or null when it can. */
    public static String invalid(StartSubAgent s) {
        if (s.parentSessionId() == null || s.callId() == null || s.prompt() == null || s.prompt().isBlank()) {
            return "a sub-agent needs its parent, the parent's call and a prompt";
        }
        return null;
    }
}
