package dev.agentbus.api;

import dev.agentbus.events.session.TokenUsage;

/** Token totals over a session's model calls (zeros where the model server reported none). */
public record Usage(long promptTokens, long completionTokens, long totalTokens) {
    public static Usage of(TokenUsage usage) {
        return usage == null ? new Usage(0, 0, 0)
                : new Usage(usage.promptTokens(), usage.completionTokens(), usage.totalTokens());
    }
}
