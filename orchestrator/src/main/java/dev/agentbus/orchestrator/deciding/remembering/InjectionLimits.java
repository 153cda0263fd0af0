package dev.agentbus.orchestrator.deciding.remembering;

/**
 * How much of the system prompt the user's insights may take: at most {@code maxInsights} of them, together at most
 * {@code budgetTokens} (estimated at four characters a token, as the context gauge estimates), and none scoring
 * below {@code minScore} (an insight faded that far is more noise than help). {@code maxInsights} 0 turns injection
 * off.
 */
public record InjectionLimits(int budgetTokens, int maxInsights, double minScore) {
    public static final InjectionLimits DEFAULTS = new InjectionLimits(400, 15, 0.05);
    public static final InjectionLimits OFF = new InjectionLimits(0, 0, 1);

    public InjectionLimits {
        if (budgetTokens < 0 || maxInsights < 0) {
            throw new IllegalArgumentException("the insight budget and count must not be negative");
        }
    }
}
