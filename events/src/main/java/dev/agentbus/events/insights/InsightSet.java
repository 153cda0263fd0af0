package dev.agentbus.events.insights;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * All of one user's insights, as the memory-service last stored them: one record per user on the compacted topic
 * {@code agentbus.user-insights}, keyed by user id. The memory-service is its only writer.
 *
 * @param version       1, 2, 3 … per user, one more for every command applied
 * @param distilledUpTo per session, the seq of the last turn's end that was distilled (whatever the model answered),
 *                      so a restarted memory-service never asks about the same turn again
 * @param lastCommandId the command that produced this version, so a writer can wait for its own change
 * @param usageUpTo     per session, the seq of the last {@code insights.injected.v1}, {@code feedback.recorded.v1}
 *                      or {@code memory.managed.v1} counted, so a use, a vote or an agent's change read again after
 *                      a restart is not applied twice
 * @param lastRebuildId the latest rebuild ({@code agentbus admin rebuild-memory}) whose result replaced the distilled
 *                      insights, null before the first
 */
public record InsightSet(String userId, long version, List<Insight> insights, Map<String, Long> distilledUpTo,
                         Instant updatedAt, String lastCommandId, Map<String, Long> usageUpTo,
                         String lastRebuildId) {
    public InsightSet {
        insights = insights == null ? List.of() : List.copyOf(insights);
        distilledUpTo = distilledUpTo == null ? Map.of() : Map.copyOf(distilledUpTo);
        usageUpTo = usageUpTo == null ? Map.of() : Map.copyOf(usageUpTo);
    }

    public InsightSet(String userId, long version, List<Insight> insights, Map<String, Long> distilledUpTo,
                      Instant updatedAt, String lastCommandId) {
        this(userId, version, insights, distilledUpTo, updatedAt, lastCommandId, Map.of(), null);
    }

    public static InsightSet empty(String userId) {
        return new InsightSet(userId, 0, List.of(), Map.of(), null, null, Map.of(), null);
    }

    public Optional<Insight> find(String insightId) {
        return insights.stream().filter(i -> i.id().equals(insightId)).findFirst();
    }

    /** Whether the turn of this session that ended at {@code turnEndSeq} was distilled already. */
    public boolean distilled(String sessionId, long turnEndSeq) {
        return distilledUpTo.getOrDefault(sessionId, 0L) >= turnEndSeq;
    }

    /** Whether the use or vote recorded at this seq of the session was counted already. */
    public boolean counted(String sessionId, long seq) {
        return usageUpTo.getOrDefault(sessionId, 0L) >= seq;
    }
}
