package dev.agentbus.events.insights;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class InsightScoreTest {
    private static final Instant SEEN = Instant.parse("2026-01-01T00:00:00Z");

    private static Insight insight(InsightCategory category, double confidence, long uses, long upVotes,
                                   boolean disabled, boolean pinned) {
        return new Insight("i1", category, "text", confidence, List.of(), SEEN, SEEN, uses, upVotes, 0, disabled,
                pinned, false, Insight.Origin.DISTILLED);
    }

    private static Insight voted(double confidence, long up, long down) {
        return insight(InsightCategory.SKILL, confidence, 0, 0, false, false).voted(up, down);
    }

    private static Insight plain(InsightCategory category) {
        return insight(category, 1.0, 0, 0, false, false);
    }

    @Test
    void a_fresh_unused_insight_scores_its_confidence() {
        assertThat(InsightScore.of(insight(InsightCategory.SKILL, 0.8, 0, 0, false, false), SEEN))
                .isCloseTo(0.8, within(1e-9));
    }

    @Test
    void freshness_halves_after_one_half_life_and_quarters_after_two() {
        for (InsightCategory c : InsightCategory.values()) {
            assertThat(InsightScore.of(plain(c), SEEN.plus(c.halfLife()))).as(c.name()).isCloseTo(0.5, within(1e-9));
            assertThat(InsightScore.of(plain(c), SEEN.plus(c.halfLife().multipliedBy(2)))).as(c.name())
                    .isCloseTo(0.25, within(1e-9));
        }
    }

    @Test
    void identity_fades_slowest_and_session_detail_fastest() {
        Instant month = SEEN.plus(Duration.ofDays(30));
        double identity = InsightScore.of(plain(InsightCategory.IDENTITY), month);
        double skill = InsightScore.of(plain(InsightCategory.SKILL), month);
        double opinion = InsightScore.of(plain(InsightCategory.OPINION), month);
        double detail = InsightScore.of(plain(InsightCategory.SESSION_DETAIL), month);

        assertThat(identity).isGreaterThan(skill);
        assertThat(skill).isGreaterThan(opinion);
        assertThat(opinion).isGreaterThan(detail);
        assertThat(detail).isLessThan(0.001);
    }

    @Test
    void a_pinned_insight_does_not_decay_and_a_disabled_one_scores_zero() {
        Instant yearsLater = SEEN.plus(Duration.ofDays(3650));
        assertThat(InsightScore.of(insight(InsightCategory.SESSION_DETAIL, 0.9, 0, 0, false, true), yearsLater))
                .isCloseTo(0.9, within(1e-9));
        assertThat(InsightScore.of(insight(InsightCategory.IDENTITY, 1.0, 10, 3, true, true), SEEN)).isZero();
    }

    @Test
    void usage_raises_the_score_with_diminishing_returns() {
        double none = InsightScore.of(insight(InsightCategory.SKILL, 1, 0, 0, false, false), SEEN);
        double few = InsightScore.of(insight(InsightCategory.SKILL, 1, 3, 0, false, false), SEEN);
        double many = InsightScore.of(insight(InsightCategory.SKILL, 1, 100, 0, false, false), SEEN);

        assertThat(few).isGreaterThan(none);
        assertThat(many).isGreaterThan(few);
        assertThat(many - few).isLessThan((few - none) * 3);
    }

    @Test
    void without_votes_the_feedback_factor_is_the_models_confidence() {
        assertThat(InsightScore.of(voted(0.8, 0, 0), SEEN)).isCloseTo(0.8, within(1e-9));
    }

    @Test
    void given_a_confidence_of_one_half_when_one_thumbs_up_then_the_posterior_mean_is_three_fifths() {
        // Beta(2, 2) prior (0.5 worth 4 votes), one success: (2 + 1) / (4 + 1).
        assertThat(InsightScore.of(voted(0.5, 1, 0), SEEN)).isCloseTo(0.6, within(1e-9));
        assertThat(InsightScore.of(voted(0.5, 0, 1), SEEN)).isCloseTo(0.4, within(1e-9));
    }

    @Test
    void many_votes_outweigh_the_model_and_the_factor_stays_between_zero_and_one() {
        double downvoted = InsightScore.of(voted(0.9, 0, 40), SEEN);
        double upvoted = InsightScore.of(voted(0.1, 40, 0), SEEN);

        assertThat(downvoted).isLessThan(0.1).isPositive();
        assertThat(upvoted).isGreaterThan(0.9).isLessThanOrEqualTo(1.0);
    }

    @Test
    void taking_a_vote_back_never_goes_below_zero_votes() {
        Insight i = voted(0.5, 0, 0).voted(-1, 0);
        assertThat(i.upVotes()).isZero();
        assertThat(InsightScore.of(i, SEEN)).isCloseTo(0.5, within(1e-9));
    }

    @Test
    void a_clock_behind_the_writer_counts_as_no_age() {
        assertThat(InsightScore.of(plain(InsightCategory.SESSION_DETAIL), SEEN.minusSeconds(60))).isEqualTo(1.0);
    }

    @Test
    void categories_read_the_names_models_and_clients_use() {
        assertThat(InsightCategory.parse("Session Detail")).contains(InsightCategory.SESSION_DETAIL);
        assertThat(InsightCategory.parse("preference")).contains(InsightCategory.PREFERENCE);
        assertThat(InsightCategory.parse("hobby")).isEmpty();
    }
}
