package dev.agentbus.modelclient;

/**
 * What one call asks for that may differ from the client's {@link ModelSettings}: a session's own model and
 * sampling. A null field takes the client's setting; {@code topP} has none there, so null means "not sent".
 *
 * @param model       the model name; null or blank: the client's (or the server's first)
 * @param temperature sent as {@code temperature}
 * @param topP        sent as {@code top_p}
 * @param maxTokens   sent as {@code max_tokens}
 */
public record CallSettings(String model, Double temperature, Double topP, Integer maxTokens) {
    public static final CallSettings NONE = new CallSettings(null, null, null, null);

    public CallSettings {
        model = model == null || model.isBlank() ? null : model.strip();
    }
}
