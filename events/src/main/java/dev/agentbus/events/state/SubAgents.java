package dev.agentbus.events.state;

import dev.agentbus.events.session.SubAgentOf;
import dev.agentbus.events.session.TurnOutcome;

import java.util.List;
import java.util.Optional;

/**
 * A session's sub-agents, folded from its log: the parent that started it (when it is a sub-agent itself) and the
 * children its {@code task} calls started ({@code sub_agent.started.v1}, {@code sub_agent.finished.v1}).
 *
 * @param parent   the parent and the call that started this session, with the tools and the cap it runs with; null
 *                 for a session a person or the inbox started
 * @param children the children this session started, in the order started
 */
public record SubAgents(SubAgentOf parent, List<Child> children) {
    public static final SubAgents NONE = new SubAgents(null, List.of());

    public SubAgents {
        children = children == null ? List.of() : List.copyOf(children);
    }

    /**
     * One child.
     *
     * @param callId      the {@code task} call that started it
     * @param sessionId   the child's session id
     * @param description what the call said the child is for (the child's title)
     * @param outcome     how the child's turn ended; null while it runs
     */
    public record Child(String callId, String sessionId, String description, TurnOutcome outcome) {
        public boolean running() {
            return outcome == null;
        }
    }

    /** The children still running: the parent waits for each one's result. */
    public List<Child> running() {
        return children.stream().filter(Child::running).toList();
    }

    /** The child started by {@code callId}, if one was. */
    public Optional<Child> byCall(String callId) {
        return children.stream().filter(c -> c.callId().equals(callId)).findFirst();
    }

    /** For {@code @JsonInclude(CUSTOM)}: true when there is nothing to say, so other sessions' JSON is unchanged. */
    @SuppressWarnings("EqualsWhichDoesntCheckParameterClass")
    public static final class IsNone {
        @Override
        public boolean equals(Object value) {
            return value == null || NONE.equals(value);
        }

        @Override
        public int hashCode() {
            return 0;
        }
    }
}
