package dev.agentbus.memory.distilling;

import dev.agentbus.modelclient.ModelSettings;
import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.core.bind.annotation.Bindable;

import java.time.Duration;

/**
 * The model server, under the same {@code llm.*} names (and {@code LLM_URL} … variables) as the orchestrator's, so
 * one setting points both services at the same OpenAI-compatible server. Only what the extraction needs is read.
 */
@ConfigurationProperties("llm")
record ModelServerSettings(
        @Bindable(defaultValue = "http://localhost:1234/v1") String url,
        @Bindable(defaultValue = "") String model,
        @Bindable(defaultValue = "") String apiKey,
        @Bindable(defaultValue = "300") int timeoutSeconds,
        @Bindable(defaultValue = "2") int retries) {

    ModelServerSettings {
        String u = url == null ? "" : url.strip();
        while (u.endsWith("/")) {
            u = u.substring(0, u.length() - 1);
        }
        // The orchestrator accepts LMAgent's full endpoint too; so must the same setting here.
        if (u.endsWith("/chat/completions")) {
            u = u.substring(0, u.length() - "/chat/completions".length());
        }
        if (!u.startsWith("http://") && !u.startsWith("https://")) {
            throw new IllegalArgumentException("llm.url must be an http:// or https:// URL, not '" + url + "'");
        }
        url = u;
        if (timeoutSeconds < 1) {
            throw new IllegalArgumentException("llm.timeout-seconds must be at least 1, not " + timeoutSeconds);
        }
        if (retries < 0) {
            throw new IllegalArgumentException("llm.retries must not be negative, not " + retries);
        }
    }

    /** Not streamed (nobody watches this answer arrive) and cool: extraction wants the likeliest reading. */
    ModelSettings forExtraction(DistillSettings distill) {
        String chosen = distill.model().isBlank() ? model : distill.model();
        return new ModelSettings(url, chosen, apiKey, 0.0, distill.maxTokens(), Duration.ofSeconds(timeoutSeconds),
                retries, false);
    }

    /** Never prints the key: settings end up in logs. */
    @Override
    public String toString() {
        return "ModelServerSettings[url=" + url + ", model=" + model + ", apiKey="
                + (apiKey == null || apiKey.isBlank() ? "<none>" : "<set>") + "]";
    }
}
