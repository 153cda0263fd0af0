package dev.agentbus.memory.distilling;

import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.core.bind.annotation.Bindable;

/**
 * Whether and how the memory-service distils insights from finished turns: the
 * {@code agentbus.memory.distill.*} settings (docs/configuration.md, "Memory distillation"). Off by default: the
 * extraction is one more model call per turn, on the same model server as the agent, which a user should choose.
 *
 * @param enabled        distil at all
 * @param model          blank: the agent's model ({@code llm.model}, or the first the server lists)
 * @param maxTokens      the answer's limit; the answer is a short JSON object
 * @param maxTurnChars   the longest transcript of one turn sent to the model; a longer one keeps its end
 * @param rebuildConcurrency how many extraction calls a rebuild makes at once
 */
@ConfigurationProperties("agentbus.memory.distill")
record DistillSettings(
        @Bindable(defaultValue = "false") boolean enabled,
        @Bindable(defaultValue = "") String model,
        @Bindable(defaultValue = "1024") int maxTokens,
        @Bindable(defaultValue = "16000") int maxTurnChars,
        @Bindable(defaultValue = "4") int rebuildConcurrency) {

    DistillSettings {
        model = model == null ? "" : model.strip();
        if (maxTokens < 1) {
            throw new IllegalArgumentException("agentbus.memory.distill.max-tokens must be at least 1, not " + maxTokens);
        }
        if (rebuildConcurrency < 1) {
            throw new IllegalArgumentException("agentbus.memory.distill.rebuild-concurrency must be at least 1, not "
                    + rebuildConcurrency);
        }
        if (maxTurnChars < 500) {
            throw new IllegalArgumentException("agentbus.memory.distill.max-turn-chars must be at least 500, not "
                    + maxTurnChars);
        }
    }
}
