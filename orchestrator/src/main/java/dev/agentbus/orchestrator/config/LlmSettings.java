package dev.agentbus.orchestrator.config;

import dev.agentbus.modelclient.ModelSettings;
import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.core.bind.annotation.Bindable;

import java.time.Duration;

/**
 * The model server the agent loop talks to: the {@code llm.*} settings, or the environment variables
 * {@code LLM_URL}, {@code LLM_MODEL}, {@code LLM_API_KEY}, {@code LLM_TEMPERATURE}, {@code LLM_MAX_TOKENS},
 * {@code LLM_TIMEOUT_SECONDS}, {@code LLM_RETRIES}, {@code LLM_STREAM}. Checked when the orchestrator starts; see
 * docs/configuration.md for what each one means.
 *
 * @param url            the server's API root; LMAgent's full {@code …/chat/completions} endpoint is accepted too
 * @param model          blank: the first model the server lists
 * @param apiKey         blank for local servers
 * @param maxTokens      0 or less: none is sent, the server's default applies
 * @param retries        further attempts after a failed one
 */
@ConfigurationProperties("llm")
public record LlmSettings(
        @Bindable(defaultValue = "http://localhost:1234/v1") String url,
        @Bindable(defaultValue = "") String model,
        @Bindable(defaultValue = "") String apiKey,
        @Bindable(defaultValue = "0.2") double temperature,
        @Bindable(defaultValue = "4096") int maxTokens,
        @Bindable(defaultValue = "300") int timeoutSeconds,
        @Bindable(defaultValue = "2") int retries,
        @Bindable(defaultValue = "true") boolean stream) {

    public LlmSettings {
        String root = url == null ? "" : normaliseUrl(url);
        if (!root.startsWith("http://") && !root.startsWith("https://")) {
            throw new IllegalArgumentException("llm.url must be an http:// or https:// URL such as "
                    + "http://localhost:1234/v1, not '" + url + "'");
        }
        if (temperature < 0) {
            throw new IllegalArgumentException("llm.temperature must not be negative, not " + temperature);
        }
        if (timeoutSeconds < 1) {
            throw new IllegalArgumentException("llm.timeout-seconds must be at least 1, not " + timeoutSeconds);
        }
        if (retries < 0) {
            throw new IllegalArgumentException("llm.retries must not be negative, not " + retries);
        }
    }

    public ModelSettings modelSettings() {
        return new ModelSettings(normaliseUrl(url), model, apiKey, temperature, maxTokens,
                Duration.ofSeconds(timeoutSeconds), retries, stream);
    }

    /** LMAgent's LLM_URL names the full endpoint; the client wants the API root. Accept both. */
    static String normaliseUrl(String url) {
        String u = url.trim();
        while (u.endsWith("/")) {
            u = u.substring(0, u.length() - 1);
        }
        if (u.endsWith("/chat/completions")) {
            u = u.substring(0, u.length() - "/chat/completions".length());
        }
        return u;
    }

    /** Never prints the key: settings end up in logs and error messages. */
    @Override
    public String toString() {
        return "LlmSettings[url=" + url + ", model=" + model + ", apiKey=" + (apiKey.isBlank() ? "<none>" : "<set>")
                + ", temperature=" + temperature + ", maxTokens=" + maxTokens + ", timeoutSeconds=" + timeoutSeconds
                + ", retries=" + retries + ", stream=" + stream + "]";
    }
}
