package dev.agentbus.events.models;

/**
 * How to sample a model's answer, as a user, a preset or a session chooses it. Every field is optional: null means
 * "not chosen here", and the next layer down decides (session, then preset, then user, then installation; see
 * {@link ModelChoice}). Part of the schema because events and the user-models topic carry it, and because the gateway
 * and the orchestrator's decider must apply the same limits ({@link #problem()}).
 *
 * @param temperature 0 to 2, as OpenAI's API takes it
 * @param topP        nucleus sampling, more than 0 and at most 1 (sent as {@code top_p})
 * @param maxTokens   the answer's token limit, 1 to {@value #MAX_TOKENS_LIMIT} (sent as {@code max_tokens})
 */
public record Sampling(Double temperature, Double topP, Integer maxTokens) {
    public static final Sampling NONE = new Sampling(null, null, null);
    public static final double MAX_TEMPERATURE = 2.0;
    public static final int MAX_TOKENS_LIMIT = 1_000_000;

    /** Nothing chosen: every field null. Not a bean getter, so it never shows in the JSON. */
    public boolean unset() {
        return temperature == null && topP == null && maxTokens == null;
    }

    /** Each field of this, where it is chosen, else the one of {@code lower}. */
    public Sampling over(Sampling lower) {
        if (lower == null) {
            return this;
        }
        return new Sampling(temperature != null ? temperature : lower.temperature,
                topP != null ? topP : lower.topP, maxTokens != null ? maxTokens : lower.maxTokens);
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
        return null;
    }

    /** Null for a sampling that chooses nothing, so events and topics keep their old shape. */
    public static Sampling orNull(Sampling s) {
        return s == null || s.unset() ? null : s;
    }
}
