package dev.agentbus.events.insights;

import java.time.Duration;
import java.time.Instant;

/**
 * How much an insight is worth now: {@code freshness × usage × feedback}. Pure, so the gateway (which shows the
 * score) and the orchestrator (which picks the best for the prompt) rank the same way.
 * <ul>
 *   <li>freshness: {@code 0.5^(age / half-life of its category)}, the age counted from when it was last seen; 1 for a
 *       pinned insight, which a person asked to keep;</li>
 *   <li>usage: {@code 1 + ln(1 + uses)}, so being used helps, with diminishing returns;</li>
 *   <li>feedback: the Bayesian estimate that the insight is right, as lm-chat scores its memories from thumbs on the
 *       answers they shaped. The model's confidence is the prior, worth {@link #PRIOR_VOTES} votes (a Beta prior
 *       {@code Beta(c·k, (1−c)·k)}); each thumbs up on an answer the insight shaped is a success, each thumbs down a
 *       failure, and the posterior mean is {@code (c·k + up) / (k + up + down)}. With no votes it is the confidence;
 *       a few votes move it, many votes outweigh the model's guess; it never leaves 0..1.</li>
 * </ul>
 * A disabled insight scores 0.
 */
public final class InsightScore {
    /** How many votes the model's confidence counts as: one person's vote moves a fresh 0.5 insight by a fifth. */
    public static final double PRIOR_VOTES = 4;

    private InsightScore() {
    }

    public static double of(Insight insight, Instant now) {
        if (insight.disabled()) {
            return 0;
        }
        return freshness(insight, now) * usage(insight.uses())
                * feedback(insight.confidence(), insight.upVotes(), insight.downVotes());
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

    /** The posterior mean of a Beta prior from the confidence, updated by the votes. */
    static double feedback(double confidence, long up, long down) {
        double c = Math.min(1, Math.max(0, confidence));
        return (c * PRIOR_VOTES + Math.max(0, up)) / (PRIOR_VOTES + Math.max(0, up) + Math.max(0, down));
    }
}
