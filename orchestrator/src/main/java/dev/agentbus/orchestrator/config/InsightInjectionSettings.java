package dev.agentbus.orchestrator.config;

import dev.agentbus.orchestrator.deciding.remembering.InjectionLimits;
import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.core.bind.annotation.Bindable;

/**
 * How many of the user's insights go into a turn's system prompt: {@code agentbus.memory.inject.*} (environment:
 * {@code AGENTBUS_MEMORY_INJECT_BUDGET_TOKENS}, {@code AGENTBUS_MEMORY_INJECT_MAX_INSIGHTS},
 * {@code AGENTBUS_MEMORY_INJECT_MIN_SCORE}). See docs/memory.md#injection.
 *
 * @param budgetTokens the most tokens all injected insights may take together (estimated at four characters each)
 * @param maxInsights  the most insights in one prompt; 0 turns injection off
 * @param minScore     an insight scoring below this is left out, however much room is left
 */
@ConfigurationProperties("agentbus.memory.inject")
public record InsightInjectionSettings(
        @Bindable(defaultValue = "400") int budgetTokens,
        @Bindable(defaultValue = "15") int maxInsights,
        @Bindable(defaultValue = "0.05") double minScore) {

    public InsightInjectionSettings {
        if (budgetTokens < 0) {
            throw new IllegalArgumentException("agentbus.memory.inject.budget-tokens must not be negative, not "
                    + budgetTokens);
        }
        if (maxInsights < 0) {
            throw new IllegalArgumentException("agentbus.memory.inject.max-insights must not be negative, not "
                    + maxInsights);
        }
        if (!(minScore >= 0 && minScore <= 1)) {
            throw new IllegalArgumentException("agentbus.memory.inject.min-score must be between 0 and 1, not "
                    + minScore);
        }
    }

    public InjectionLimits limits() {
        return new InjectionLimits(budgetTokens, maxInsights, minScore);
    }
}
