package dev.agentbus.events.session;

/** Tokens one model call used, as the model server reported them (zeros when it reported none). */
public record TokenUsage(long promptTokens, long completionTokens, long totalTokens) {
    public static final TokenUsage ZERO = new TokenUsage(0, 0, 0);

    public TokenUsage plus(TokenUsage other) {
        return new TokenUsage(promptTokens + other.promptTokens, completionTokens + other.completionTokens,
                totalTokens + other.totalTokens);
    }
}
