package dev.agentbus.api.insights;

import java.time.Instant;
import java.util.List;

/**
 * One insight in the answers of {@code /api/v1/memory/insights}: what it says, where it came from and what it is
 * worth now.
 *
 * @param score see {@link InsightScore}; 0 for a disabled insight
 */
public record InsightView(String id, InsightCategory category, String text, double confidence, double score,
                          boolean disabled, boolean pinned, List<InsightSource> sources, Instant createdAt,
                          Instant lastSeenAt) {
    public static InsightView of(Insight i, Instant now) {
        return new InsightView(i.id(), i.category(), i.text(), i.confidence(), InsightScore.of(i, now), i.disabled(),
                i.pinned(), i.sources(), i.createdAt(), i.lastSeenAt());
    }
}
