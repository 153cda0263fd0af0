package dev.agentbus.orchestrator.config;

import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.context.annotation.Property;
import io.micronaut.core.bind.annotation.Bindable;

/**
 * How the agent loop runs: {@code agentbus.agent.*} and {@code agentbus.orchestrator.snapshot-every} (environment:
 * {@code AGENTBUS_AGENT_MAX_ITERATIONS}, {@code AGENTBUS_AGENT_SYSTEM_PROMPT},
 * {@code AGENTBUS_ORCHESTRATOR_SNAPSHOT_EVERY}). Checked when the orchestrator starts; see docs/configuration.md.
 *
 * @param maxIterations the most model calls one turn may make
 * @param systemPrompt  replaces the built-in system prompt; blank keeps it
 * @param snapshotEvery snapshot a session's state every this many events; 0 turns snapshots off
 */
@ConfigurationProperties("agentbus.agent")
public record AgentSettings(
        @Bindable(defaultValue = "25") int maxIterations,
        @Bindable(defaultValue = "") String systemPrompt,
        @Property(name = "agentbus.orchestrator.snapshot-every") @Bindable(defaultValue = "100") int snapshotEvery) {

    public AgentSettings {
        if (maxIterations < 1) {
            throw new IllegalArgumentException("agentbus.agent.max-iterations must be at least 1, not "
                    + maxIterations);
        }
        systemPrompt = systemPrompt == null ? "" : systemPrompt;
        if (snapshotEvery < 0) {
            throw new IllegalArgumentException("agentbus.orchestrator.snapshot-every must be 0 (off) or more, not "
                    + snapshotEvery);
        }
    }
}
