package dev.agentbus.gateway.accounts.modelserver;

import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.core.bind.annotation.Bindable;

import java.time.Duration;

/**
 * The installation's model server, under the same {@code llm.*} names (and {@code LLM_URL} … variables) as the
 * orchestrator's, so one setting points both at the same server. The gateway only lists its models ({@code GET
 * /api/v1/models}) for users without a server of their own; it never sends it a conversation.
 *
 * @param timeoutSeconds the orchestrator's limit for a whole model call; listing models waits at most this, and never
 *                       more than {@link #MAX_LIST_WAIT}, since a person is waiting for the answer
 */
@ConfigurationProperties("llm")
public record TeamModelServer(
        @Bindable(defaultValue = "http://localhost:1234/v1") String url,
        @Bindable(defaultValue = "") String apiKey,
        @Bindable(defaultValue = "300") int timeoutSeconds) {
    static final Duration MAX_LIST_WAIT = Duration.ofSeconds(10);

    public TeamModelServer {
        String u = url == null ? "" : url.strip();
        while (u.endsWith("/")) {
            u = u.substring(0, u.length() - 1);
        }
        // The orchestrator accepts LMAgent's full endpoint too; so must the same setting here.
        if (u.endsWith("/chat/completions")) {
            u = u.substring(0, u.length() - "/chat/completions".length());
        }
        url = u;
        apiKey = apiKey == null ? "" : apiKey;
    }

    public Duration listWait() {
        Duration setting = Duration.ofSeconds(Math.max(1, timeoutSeconds));
        return setting.compareTo(MAX_LIST_WAIT) < 0 ? setting : MAX_LIST_WAIT;
    }

    /** Never prints the key: settings end up in logs. */
    @Override
    public String toString() {
        return "TeamModelServer[url=" + url + ", apiKey=" + (apiKey.isBlank() ? "<none>" : "<set>")
                + ", timeoutSeconds=" + timeoutSeconds + "]";
    }
}
