package dev.agentbus.orchestrator.config;

import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.core.bind.annotation.Bindable;

/**
 * When the conversation is compacted, and the context window of servers that do not tell theirs:
 * {@code agentbus.context.*} (environment: {@code AGENTBUS_CONTEXT_COMPACT_AT},
 * {@code AGENTBUS_CONTEXT_KEEP_RECENT_MESSAGES}, {@code AGENTBUS_CONTEXT_WINDOW}). Checked when the orchestrator
 * starts; see docs/configuration.md#context.
 *
 * @param compactAt          compact before a model call whose prompt would pass this share of the window (0.8:
 *                           80 %); 0 turns automatic compaction off ({@code /compact} still works)
 * @param keepRecentMessages the newest messages kept word for word when the older ones are summarised
 * @param window             the context window in tokens for a model server that tells none (a hosted API); 0:
 *                           unknown, so no automatic compaction there
 */
@ConfigurationProperties("agentbus.context")
public record ContextSettings(
        @Bindable(defaultValue = "0.8") double compactAt,
        @Bindable(defaultValue = "20") int keepRecentMessages,
        @Bindable(defaultValue = "0") long window) {

    public ContextSettings {
        if (!(compactAt >= 0 && compactAt < 1)) {
            throw new IllegalArgumentException("agentbus.context.compact-at must be at least 0 (off) and less than 1, "
                    + "not " + compactAt);
        }
        if (keepRecentMessages < 1) {
            throw new IllegalArgumentException("agentbus.context.keep-recent-messages must be at least 1, not "
                    + keepRecentMessages);
        }
        if (window < 0) {
            throw new IllegalArgumentException("agentbus.context.window must be 0 (ask the server) or more, not "
                    + window);
        }
    }
}
