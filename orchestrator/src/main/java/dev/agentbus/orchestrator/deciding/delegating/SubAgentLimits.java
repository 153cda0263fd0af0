package dev.agentbus.orchestrator.deciding.delegating;

import dev.agentbus.events.tools.ToolCatalog;
import dev.agentbus.events.tools.ToolSpec;

import java.util.List;

/**
 * How far a session may delegate: {@code agentbus.sub-agents.*} (docs/configuration.md).
 *
 * @param maxRunning    children one session may have running at once (LMAgent's {@code MAX_MINI_AGENTS}); a
 *                      {@code task} call over it is answered with an error, not queued
 * @param maxIterations a child's cap on model calls when its call asks for none, and the most it may ask for (never
 *                      more than the installation's {@code agentbus.agent.max-iterations})
 * @param defaultTools  the tools a child gets when its call names none
 */
public record SubAgentLimits(int maxRunning, int maxIterations, List<String> defaultTools) {
    /** The file tools: a child reads and edits files, and runs nothing. */
    public static final List<String> FILE_TOOLS = List.of("read", "write", "edit", "ls", "glob", "grep");
    public static final SubAgentLimits DEFAULTS = new SubAgentLimits(3, 10, FILE_TOOLS);

    public SubAgentLimits {
        if (maxRunning < 1 || maxIterations < 1) {
            throw new IllegalArgumentException("agentbus.sub-agents.max-running and max-iterations are 1 or more");
        }
        defaultTools = List.copyOf(defaultTools);
        for (String tool : defaultTools) {
            if (SubAgentTools.notAllowed(tool).isPresent()) {
                throw new IllegalArgumentException("agentbus.sub-agents.default-tools: "
                        + SubAgentTools.notAllowed(tool).get());
            }
        }
    }

    /** The tools a child may be given: the model's tools except {@code task} itself. */
    static List<String> allowedTools() {
        return ToolCatalog.TOOLS.stream().map(ToolSpec::name).filter(n -> !ToolCatalog.TASK.equals(n)).toList();
    }
}
