package dev.agentbus.api.insights;

import java.time.Duration;
import java.time.Instant;

/**
 * How much an insight is worth now: {@code freshness × usage × feedback}. Pure, so the gateway (which shows the
 * score) and a later prompt builder (which will pick the best) rank the same way.
 * <ul>
 *   <li>freshness: {@code 0.5^(age / half-life of its category)}, the age counted from when it was last seen; 1 for a
 *       pinned insight, which a person asked to keep;</li>
 *   <li>usage: {@code 1 + ln(1 + uses)}, so being used helps, with diminishing returns;</li>
 *   <li>feedback: the model's confidence, times {@code 1 + 0.25 × net votes}, never below 0.</li>
 * </ul>
 * A disabled insight scores 0.
 */
public final class InsightScore {
    private InsightScore() {
    }

    public static double of(Insight insight, Instant now) {
        if (insight.disabled()) {
            return 0;
        }
        return freshness(insight, now) * usage(insight.uses()) * feedback(insight.confidence(), insight.feedback());
    }

    static double freshness(Insight insight, Instant now) {
        if (insight.pinned() || insight.lastSeenAt() == null) {
            return 1;
        }
        return decay(Duration.between(insight.lastSeenAt(), now), insight.category().halfLife());
    }

    /** {@code 0.5^(age / halfLife)}; an age below zero (a clock behind the writer's) counts as none. */
    static double decay(Duration age, Duration halfLife) {
        double ratio = Math.max(0, age.toMillis()) / (double) halfLife.toMillis();
        return Math.pow(0.5, ratio);
    }

    static double usage(long uses) {
        return 1 + Math.log1p(Math.max(0, uses));
    }

    static double feedback(double confidence, long netVotes) {
        return Math.max(0, confidence * (1 + 0.25 * netVotes));
    }
}
