package dev.agentbus.orchestrator.config;

import dev.agentbus.orchestrator.deciding.delegating.SubAgentLimits;
import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.core.bind.annotation.Bindable;

import java.util.List;

/**
 * How far a session may delegate to sub-agents (the {@code task} tool): {@code agentbus.sub-agents.*} (environment:
 * {@code AGENTBUS_SUB_AGENTS_MAX_RUNNING}, {@code AGENTBUS_SUB_AGENTS_MAX_ITERATIONS},
 * {@code AGENTBUS_SUB_AGENTS_DEFAULT_TOOLS}). Checked when the orchestrator starts; see docs/configuration.md.
 *
 * @param maxRunning    the most children one session may have running at once (LMAgent's {@code MAX_MINI_AGENTS});
 *                      a {@code task} call over it is answered with an error
 * @param maxIterations a child's cap on model calls when its call asks for none, and the most it may ask for
 * @param defaultTools  the tools a child gets when its call names none (comma-separated in the environment)
 */
@ConfigurationProperties("agentbus.sub-agents")
public record SubAgentSettings(
        @Bindable(defaultValue = "3") int maxRunning,
        @Bindable(defaultValue = "10") int maxIterations,
        @Bindable(defaultValue = "read,write,edit,ls,glob,grep") List<String> defaultTools) {

    public SubAgentSettings {
        if (maxRunning < 1) {
            throw new IllegalArgumentException("agentbus.sub-agents.max-running must be at least 1, not " + maxRunning);
        }
        if (maxIterations < 1) {
            throw new IllegalArgumentException("agentbus.sub-agents.max-iterations must be at least 1, not "
                    + maxIterations);
        }
        defaultTools = defaultTools == null ? List.of() : defaultTools.stream().map(String::strip)
                .filter(t -> !t.isEmpty()).toList();
        if (defaultTools.isEmpty()) {
            throw new IllegalArgumentException("agentbus.sub-agents.default-tools must name at least one tool");
        }
        // A default tool that does not exist, is only a person's, or is task itself is refused here, at start.
        new SubAgentLimits(maxRunning, maxIterations, defaultTools);
    }

    /** The limits the decider applies. */
    public SubAgentLimits limits() {
        return new SubAgentLimits(maxRunning, maxIterations, defaultTools);
    }
}
