package dev.agentbus.modelclient;

/**
 * What one call asks for that may differ from the client's {@link ModelSettings}: a session's own model and
 * sampling. A null field takes the client's setting; {@code topP} and the reasoning controls have none there, so null
 * means "not sent".
 *
 * @param model               the model name; null or blank: the client's (or the server's first)
 * @param temperature         sent as {@code temperature}
 * @param topP                sent as {@code top_p}
 * @param maxTokens           sent as {@code max_tokens}
 * @param reasoningEffort     sent as {@code reasoning_effort} (low, medium, high)
 * @param thinkingBudget      the most tokens the model may think, sent under {@code thinkingBudgetField}
 * @param thinkingBudgetField the request field the server reads a thinking budget from; null: {@value #BUDGET_FIELD}
 */
public record CallSettings(String model, Double temperature, Double topP, Integer maxTokens, String reasoningEffort,
                           Integer thinkingBudget, String thinkingBudgetField) {
    public static final CallSettings NONE = new CallSettings(null, null, null, null);
    /** No standard names a thinking budget; this is the default field, {@code llm.thinking-budget-field} another. */
    public static final String BUDGET_FIELD = "max_thinking_tokens";

    public CallSettings {
        model = model == null || model.isBlank() ? null : model.strip();
        thinkingBudgetField = thinkingBudgetField == null || thinkingBudgetField.isBlank() ? BUDGET_FIELD
                : thinkingBudgetField.strip();
    }

    /** Without reasoning controls. */
    public CallSettings(String model, Double temperature, Double topP, Integer maxTokens) {
        this(model, temperature, topP, maxTokens, null, null, null);
    }
}
