package dev.agentbus.modelclient;

import java.time.Duration;
import java.util.Objects;

/**
 * How to reach one OpenAI-compatible model server and how to sample from it.
 *
 * @param baseUrl     the server's API root including the version path, e.g. {@code http://localhost:1234/v1}
 *                    (LM Studio), {@code http://localhost:11434/v1} (Ollama); a trailing slash is dropped
 * @param model       the model name; blank means "ask {@code GET /v1/models} once and use the first
 *                    model listed", which is what a single-model local server wants
 * @param apiKey      bearer key; blank is allowed because local servers ignore it (a placeholder is sent,
 *                    as the SDK insists on one)
 * @param temperature sampling temperature, sent as is
 * @param maxTokens   the reply's token limit; 0 or less means "do not send one" (server default)
 * @param timeout     the limit for one whole HTTP attempt, including reading a streamed reply to the
 *                    end; a slow local model needs a generous value
 * @param maxRetries  how often a failed attempt is retried (connection errors, 408, 409, 429, 5xx)
 * @param stream      whether replies are streamed (deltas reach the {@link DeltaListener} as they come)
 */
public record ModelSettings(
        String baseUrl,
        String model,
        String apiKey,
        double temperature,
        int maxTokens,
        Duration timeout,
        int maxRetries,
        boolean stream) {

    public static final Duration DEFAULT_TIMEOUT = Duration.ofMinutes(5);
    public static final int DEFAULT_MAX_RETRIES = 2;
    public static final double DEFAULT_TEMPERATURE = 0.2;

    public ModelSettings {
        Objects.requireNonNull(baseUrl, "baseUrl");
        baseUrl = baseUrl.strip();
        while (baseUrl.endsWith("/")) {
            baseUrl = baseUrl.substring(0, baseUrl.length() - 1);
        }
        if (!baseUrl.startsWith("http://") && !baseUrl.startsWith("https://")) {
            throw new IllegalArgumentException("baseUrl must be an http(s) URL like http://localhost:1234/v1, was '" + baseUrl + "'");
        }
        model = model == null ? "" : model.strip();
        apiKey = apiKey == null ? "" : apiKey;
        timeout = timeout == null ? DEFAULT_TIMEOUT : timeout;
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("timeout must be positive, was " + timeout);
        }
        if (maxRetries < 0) {
            throw new IllegalArgumentException("maxRetries must not be negative, was " + maxRetries);
        }
    }

    /** Streaming settings with the defaults above, no API key and no token limit. */
    public static ModelSettings of(String baseUrl, String model) {
        return new ModelSettings(baseUrl, model, "", DEFAULT_TEMPERATURE, 0, DEFAULT_TIMEOUT, DEFAULT_MAX_RETRIES, true);
    }

    public ModelSettings withModel(String newModel) {
        return new ModelSettings(baseUrl, newModel, apiKey, temperature, maxTokens, timeout, maxRetries, stream);
    }

    public ModelSettings withApiKey(String newApiKey) {
        return new ModelSettings(baseUrl, model, newApiKey, temperature, maxTokens, timeout, maxRetries, stream);
    }

    public ModelSettings withStream(boolean newStream) {
        return new ModelSettings(baseUrl, model, apiKey, temperature, maxTokens, timeout, maxRetries, newStream);
    }

    public ModelSettings withTimeout(Duration newTimeout) {
        return new ModelSettings(baseUrl, model, apiKey, temperature, maxTokens, newTimeout, maxRetries, stream);
    }

    public ModelSettings withMaxRetries(int newMaxRetries) {
        return new ModelSettings(baseUrl, model, apiKey, temperature, maxTokens, timeout, newMaxRetries, stream);
    }

    public ModelSettings withMaxTokens(int newMaxTokens) {
        return new ModelSettings(baseUrl, model, apiKey, temperature, newMaxTokens, timeout, maxRetries, stream);
    }

    public ModelSettings withTemperature(double newTemperature) {
        return new ModelSettings(baseUrl, model, apiKey, newTemperature, maxTokens, timeout, maxRetries, stream);
    }

    /** Never prints the key: settings end up in logs and error messages. */
    @Override
    public String toString() {
        return "ModelSettings[baseUrl=" + baseUrl + ", model=" + (model.isEmpty() ? "<first listed>" : model)
                + ", apiKey=" + (apiKey.isBlank() ? "<none>" : "<set>") + ", temperature=" + temperature
                + ", maxTokens=" + maxTokens + ", timeout=" + timeout + ", maxRetries=" + maxRetries
                + ", stream=" + stream + "]";
    }
}
