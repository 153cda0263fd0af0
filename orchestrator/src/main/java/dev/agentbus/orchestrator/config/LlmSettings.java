package dev.agentbus.orchestrator.config;

import dev.agentbus.modelclient.ModelSettings;
import io.micronaut.context.annotation.Value;
import jakarta.inject.Singleton;

import java.time.Duration;

/**
 * The model server the agent loop talks to. Read from {@code LLM_URL}, {@code LLM_MODEL}, {@code LLM_API_KEY},
 * {@code LLM_TEMPERATURE}, {@code LLM_MAX_TOKENS}, {@code LLM_TIMEOUT_SECONDS}, {@code LLM_RETRIES},
 * {@code LLM_STREAM} (or the same keys as {@code llm.*} properties). See docs/configuration.md.
 */
@Singleton
public final class LlmSettings {
    private final ModelSettings settings;

    public LlmSettings(@Value("${llm.url:`http://localhost:1234/v1`}") String url,
                       @Value("${llm.model:}") String model,
                       @Value("${llm.api-key:}") String apiKey,
                       @Value("${llm.temperature:0.2}") double temperature,
                       @Value("${llm.max-tokens:4096}") int maxTokens,
                       @Value("${llm.timeout-seconds:300}") int timeoutSeconds,
                       @Value("${llm.retries:2}") int retries,
                       @Value("${llm.stream:true}") boolean stream) {
        this.settings = new ModelSettings(normaliseUrl(url), model, apiKey, temperature, maxTokens,
                Duration.ofSeconds(timeoutSeconds), retries, stream);
    }

    public ModelSettings modelSettings() {
        return settings;
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
}
