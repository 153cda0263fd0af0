package dev.agentbus.events.session;

import java.util.List;

/**
 * A sub-agent's link to the session that started it, carried by the child's {@code session.created.v1}.
 *
 * @param parentSessionId the parent session
 * @param callId          the parent's {@code task} call that started this child; its result is this child's answer
 * @param tools           the only tools the child's model is offered and may call
 * @param maxIterations   the child's own cap on model calls in its turn (at most the installation's)
 */
public record SubAgentOf(String parentSessionId, String callId, List<String> tools, int maxIterations) {
    public SubAgentOf {
        tools = tools == null ? List.of() : List.copyOf(tools);
    }
}
