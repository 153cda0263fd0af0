package dev.agentbus.orchestrator.deciding.remembering;

import dev.agentbus.events.insights.Insight;
import dev.agentbus.events.insights.InsightCategory;
import dev.agentbus.events.insights.InsightSet;
import dev.agentbus.events.session.InjectedInsight;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class InsightSelectionTest {
    private static final Instant NOW = Instant.parse("2026-11-22T10:00:00Z");

    private static Insight insight(String id, InsightCategory category, String text, double confidence,
                                   Instant seen) {
        return new Insight(id, category, text, confidence, List.of(), seen, seen, 0, 0, 0, false, false, false,
                Insight.Origin.DISTILLED);
    }

    private static List<String> chosen(InjectionLimits limits, Insight... insights) {
        return InsightSelection.choose(new InsightSet("u", 1, List.of(insights), Map.of(), NOW, "c"), NOW, limits)
                .stream().map(InjectedInsight::id).toList();
    }

    @Test
    void given_insights_of_different_scores_when_chosen_then_the_best_come_first_and_the_count_is_capped() {
        var limits = new InjectionLimits(1000, 2, 0);

        assertThat(chosen(limits,
                insight("low", InsightCategory.SKILL, "a", 0.3, NOW),
                insight("high", InsightCategory.SKILL, "b", 0.9, NOW),
                insight("mid", InsightCategory.SKILL, "c", 0.6, NOW))).containsExactly("high", "mid");
    }

    @Test
    void given_a_long_insight_that_does_not_fit_when_chosen_then_shorter_ones_after_it_still_go_in() {
        // 400 characters cost 104 tokens; a 40-token budget takes only short lines.
        var limits = new InjectionLimits(40, 10, 0);

        assertThat(chosen(limits,
                insight("long", InsightCategory.SKILL, "x".repeat(400), 0.9, NOW),
                insight("short", InsightCategory.SKILL, "uses vim", 0.5, NOW))).containsExactly("short");
    }

    @Test
    void given_a_faded_session_detail_when_chosen_then_it_falls_below_the_minimum_score_and_stays_out() {
        Instant weekAgo = NOW.minus(Duration.ofDays(21));

        assertThat(chosen(InjectionLimits.DEFAULTS,
                insight("old", InsightCategory.SESSION_DETAIL, "is debugging a flaky test", 1.0, weekAgo),
                insight("who", InsightCategory.IDENTITY, "is called Ada", 1.0, weekAgo))).containsExactly("who");
    }

    @Test
    void given_equal_scores_when_chosen_twice_then_the_choice_is_the_same_ordered_by_id() {
        var a = insight("a", InsightCategory.SKILL, "x", 0.5, NOW);
        var b = insight("b", InsightCategory.SKILL, "y", 0.5, NOW);

        assertThat(chosen(InjectionLimits.DEFAULTS, b, a)).containsExactly("a", "b");
        assertThat(chosen(InjectionLimits.OFF, a, b)).isEmpty();
    }

    @Test
    void the_chosen_insights_read_one_line_each_with_their_category() {
        assertThat(InsightSelection.render(List.of(
                new InjectedInsight("a", InsightCategory.PREFERENCE, "prefers tabs"),
                new InjectedInsight("b", InsightCategory.IDENTITY, "is called Ada"))))
                .isEqualTo("- prefers tabs (preference)\n- is called Ada (identity)");
    }
}
