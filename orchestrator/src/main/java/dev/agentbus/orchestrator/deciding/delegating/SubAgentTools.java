package dev.agentbus.orchestrator.deciding.delegating;

import dev.agentbus.events.state.SessionState;
import dev.agentbus.events.tools.ToolCatalog;
import dev.agentbus.events.tools.ToolSpec;

import java.util.Optional;

/**
 * What a sub-agent may do: only the tools its parent gave it, and at most its own number of model calls. A session
 * no {@code task} call started is not limited here. Pure, like the rest of the decider.
 */
public final class SubAgentTools {
    private SubAgentTools() {
    }

    /** Why the session may not call {@code tool}, when it is a child that was not given it. */
    public static Optional<String> refusal(SessionState state, String tool) {
        var parent = state.subAgents().parent();
        if (parent == null || parent.tools().contains(tool)) {
            return Optional.empty();
        }
        return Optional.of("'" + tool + "' is not one of this sub-agent's tools; it may use " + parent.tools());
    }

    /** Whether the session's model is offered {@code tool}: every tool, or a child's own. */
    public static boolean offered(SessionState state, ToolSpec tool) {
        return refusal(state, tool.name()).isEmpty();
    }

    /** The session's cap on model calls in a turn: the installation's, or a child's own when lower. */
    public static int maxIterations(SessionState state, int installationCap) {
        var parent = state.subAgents().parent();
        return parent == null || parent.maxIterations() < 1 ? installationCap
                : Math.min(parent.maxIterations(), installationCap);
    }

    /** Why {@code tool} cannot be given to a child, if it cannot. */
    static Optional<String> notAllowed(String tool) {
        if (ToolCatalog.TASK.equals(tool)) {
            return Optional.of("a sub-agent cannot start sub-agents of its own (task)");
        }
        Optional<ToolSpec> spec = ToolCatalog.find(tool);
        if (spec.isEmpty() || spec.get().userOnly()) {
            return Optional.of("unknown tool '" + tool + "'; a sub-agent may have " + SubAgentLimits.allowedTools());
        }
        return Optional.empty();
    }
}
