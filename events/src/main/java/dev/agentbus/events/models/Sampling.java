package dev.agentbus.events.models;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * How to sample a model's answer, as a user, a preset or a session chooses it. Every field is optional: null means
 * "not chosen here", and the next layer down decides (session, then preset, then user, then installation; see
 * {@link ModelChoice}). Part of the schema because events and the user-models topic carry it, and because the gateway
 * and the orchestrator's decider must apply the same limits ({@link #problem()}).
 *
 * @param temperature 0 to 2, as OpenAI's API takes it
 * @param topP        nucleus sampling, more than 0 and at most 1 (sent as {@code top_p})
 * @param maxTokens   the answer's token limit, 1 to {@value #MAX_TOKENS_LIMIT} (sent as {@code max_tokens})
 * @param reasoningEffort how hard a reasoning model thinks: {@code low}, {@code medium} or {@code high} (sent as
 *                    {@code reasoning_effort}, which OpenAI, vLLM, LM Studio and Ollama's compatible API take)
 * @param thinkingBudget the most tokens a reasoning model may think, 1 to {@value #MAX_TOKENS_LIMIT} (sent under
 *                    the field the installation names, {@code llm.thinking-budget-field}, as no standard exists)
 */
public record Sampling(Double temperature, Double topP, Integer maxTokens,
                       @JsonInclude(JsonInclude.Include.NON_NULL) String reasoningEffort,
                       @JsonInclude(JsonInclude.Include.NON_NULL) Integer thinkingBudget) {
    public static final Sampling NONE = new Sampling(null, null, null);
    public static final double MAX_TEMPERATURE = 2.0;
    public static final int MAX_TOKENS_LIMIT = 1_000_000;
    /** The efforts OpenAI's {@code reasoning_effort} takes, and with it the local servers that copy it. */
    public static final java.util.List<String> EFFORTS = java.util.List.of("low", "medium", "high");

    public Sampling {
        reasoningEffort = reasoningEffort == null || reasoningEffort.isBlank() ? null
                : reasoningEffort.strip().toLowerCase(java.util.Locale.ROOT);
    }

    /** Sampling without reasoning controls, as written before they could be chosen. */
    public Sampling(Double temperature, Double topP, Integer maxTokens) {
        this(temperature, topP, maxTokens, null, null);
    }

    /** Nothing chosen: every field null. Not a bean getter, so it never shows in the JSON. */
    public boolean unset() {
        return temperature == null && topP == null && maxTokens == null && reasoningEffort == null
                && thinkingBudget == null;
    }

    /** Each field of this, where it is chosen, else the one of {@code lower}. */
    public Sampling over(Sampling lower) {
        if (lower == null) {
            return this;
        }
        return new Sampling(temperature != null ? temperature : lower.temperature,
                topP != null ? topP : lower.topP, maxTokens != null ? maxTokens : lower.maxTokens,
                reasoningEffort != null ? reasoningEffort : lower.reasoningEffort,
                thinkingBudget != null ? thinkingBudget : lower.thinkingBudget);
    }

    /** What is wrong with these values, in words for the person who sent them; null when nothing is. */
    public String problem() {
        if (temperature != null && (temperature.isNaN() || temperature < 0 || temperature > MAX_TEMPERATURE)) {
            return "temperature must be from 0 to 2, not " + temperature;
        }
        if (topP != null && (topP.isNaN() || topP <= 0 || topP > 1)) {
            return "topP must be more than 0 and at most 1, not " + topP;
        }
        if (maxTokens != null && (maxTokens < 1 || maxTokens > MAX_TOKENS_LIMIT)) {
            return "maxTokens must be from 1 to " + MAX_TOKENS_LIMIT + ", not " + maxTokens;
        }
        if (reasoningEffort != null && !EFFORTS.contains(reasoningEffort)) {
            return "reasoningEffort must be low, medium or high, not " + reasoningEffort;
        }
        if (thinkingBudget != null && (thinkingBudget < 1 || thinkingBudget > MAX_TOKENS_LIMIT)) {
            return "thinkingBudget must be from 1 to " + MAX_TOKENS_LIMIT + ", not " + thinkingBudget;
        }
        return null;
    }

    /** Whether a reasoning control is chosen: only a reasoning ("thinking") model is asked for one. */
    public boolean asksForReasoning() {
        return reasoningEffort != null || thinkingBudget != null;
    }

    /** Null for a sampling that chooses nothing, so events and topics keep their old shape. */
    public static Sampling orNull(Sampling s) {
        return s == null || s.unset() ? null : s;
    }
}
