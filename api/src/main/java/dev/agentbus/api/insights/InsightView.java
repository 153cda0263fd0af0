package dev.agentbus.api.insights;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.agentbus.events.insights.Insight;
import dev.agentbus.events.insights.InsightCategory;
import dev.agentbus.events.insights.InsightScore;
import dev.agentbus.events.insights.InsightSource;

import java.time.Instant;
import java.util.List;

/**
 * One insight in the answers of {@code /api/v1/memory/insights}: what it says, where it came from and what it is
 * worth now.
 *
 * @param score       see {@link InsightScore}; 0 for a disabled insight
 * @param uses        in how many turns' prompts it was
 * @param upVotes     thumbs up on answers it shaped
 * @param downVotes   thumbs down on answers it shaped
 * @param isProtected {@code "protected"}: only a person may change it
 * @param origin      {@code distilled}, {@code person} or {@code agent}
 */
public record InsightView(String id, InsightCategory category, String text, double confidence, double score,
                          boolean disabled, boolean pinned, @JsonProperty("protected") boolean isProtected,
                          String origin, long uses, long upVotes, long downVotes, List<InsightSource> sources,
                          Instant createdAt, Instant lastSeenAt) {
    public static InsightView of(Insight i, Instant now) {
        return new InsightView(i.id(), i.category(), i.text(), i.confidence(), InsightScore.of(i, now), i.disabled(),
                i.pinned(), i.isProtected(), i.origin().name().toLowerCase(java.util.Locale.ROOT), i.uses(),
                i.upVotes(), i.downVotes(), i.sources(), i.createdAt(), i.lastSeenAt());
    }
}
