package dev.agentbus.gateway.models;

import dev.agentbus.events.models.ModelChoice;
import dev.agentbus.events.models.Sampling;
import dev.agentbus.gateway.errors.ApiException;
import io.micronaut.core.annotation.Nullable;

/**
 * {@code "sampling": {"temperature", "topP", "maxTokens", "reasoningEffort", "thinkingBudget"}} as a client sends it
 * (creating a session, changing its model); each field optional. The limits are the schema's
 * ({@link Sampling#problem()}), the same the decider applies.
 */
public record SamplingRequest(@Nullable Double temperature, @Nullable Double topP, @Nullable Integer maxTokens,
                              @Nullable String reasoningEffort, @Nullable Integer thinkingBudget) {

    public SamplingRequest(@Nullable Double temperature, @Nullable Double topP, @Nullable Integer maxTokens) {
        this(temperature, topP, maxTokens, null, null);
    }

    /**
     * A model and sampling a person chose, checked: a 400 with the reason when out of bounds.
     *
     * @return the choice, {@link ModelChoice#NONE} when nothing was chosen
     */
    public static ModelChoice check(@Nullable String model, @Nullable SamplingRequest sampling) {
        Sampling s = sampling == null ? Sampling.NONE
                : new Sampling(sampling.temperature(), sampling.topP(), sampling.maxTokens(),
                sampling.reasoningEffort(), sampling.thinkingBudget());
        ModelChoice choice = new ModelChoice(model, s);
        String problem = choice.problem();
        if (problem != null) {
            throw ApiException.badRequest(problem);
        }
        return choice;
    }
}
