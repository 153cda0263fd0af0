package dev.agentbus.api.insights;

import dev.agentbus.events.insights.InsightSet;

import java.time.Instant;
import java.util.Comparator;
import java.util.List;

/**
 * {@code GET} and {@code DELETE /api/v1/memory/insights}: the caller's insights, best first.
 *
 * @param version the insight set's version (0 before anything was distilled or changed)
 */
public record InsightList(String userId, long version, List<InsightView> insights) {
    public static InsightList of(InsightSet set, Instant now) {
        return new InsightList(set.userId(), set.version(), set.insights().stream()
                .map(i -> InsightView.of(i, now))
                .sorted(Comparator.comparingDouble(InsightView::score).reversed().thenComparing(InsightView::id))
                .toList());
    }
}
