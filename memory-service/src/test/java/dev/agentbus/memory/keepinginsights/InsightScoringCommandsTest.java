package dev.agentbus.memory.keepinginsights;

import dev.agentbus.events.insights.Insight;
import dev.agentbus.events.insights.InsightCategory;
import dev.agentbus.events.insights.InsightCommand.ApplyRefinement;
import dev.agentbus.events.insights.InsightCommand.EditInsight;
import dev.agentbus.events.insights.InsightCommand.Extracted;
import dev.agentbus.events.insights.InsightCommand.Merge;
import dev.agentbus.events.insights.InsightCommand.RecordDistillation;
import dev.agentbus.events.insights.InsightCommand.RecordFeedback;
import dev.agentbus.events.insights.InsightCommand.RecordUse;
import dev.agentbus.events.insights.InsightCommand.ReplaceDistilled;
import dev.agentbus.events.insights.InsightScore;
import dev.agentbus.events.insights.InsightSet;
import dev.agentbus.events.insights.InsightSource;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Uses, votes, rebuilds, refinements and protection, given a set, when a command, then the next set. */
class InsightScoringCommandsTest {
    private static final Instant T = Instant.parse("2026-11-22T10:00:00Z");
    private static final Insight TABS = new Insight("tabs", InsightCategory.PREFERENCE, "prefers tabs", 0.5,
            List.of(new InsightSource("s1", List.of(2L, 3L))), T, T, 0, 0, 0, false, false, false,
            Insight.Origin.DISTILLED);
    private static final Insight NAME = new Insight("name", InsightCategory.IDENTITY, "is called Ada", 1.0, List.of(),
            T, T, 0, 0, 0, false, false, true, Insight.Origin.PERSON);
    private static final InsightSet SET = new InsightSet("alice", 5, List.of(TABS, NAME), Map.of("s1", 3L), T, "c0");

    private static Insight tabs(InsightSet set) {
        return set.find("tabs").orElseThrow();
    }

    @Test
    void given_an_insight_when_a_turn_used_it_then_its_uses_grow_once_even_if_the_command_comes_twice() {
        var use = new RecordUse("u1", "alice", "s2", 4, List.of("tabs"));

        InsightSet once = InsightBook.apply(SET, use, T);
        InsightSet twice = InsightBook.apply(once, use, T);

        assertThat(tabs(once).uses()).isEqualTo(1);
        assertThat(tabs(twice).uses()).isEqualTo(1);
        assertThat(twice.usageUpTo()).containsEntry("s2", 4L);
    }

    @Test
    void given_an_insight_when_an_answer_it_shaped_gets_a_thumbs_up_then_its_score_rises_by_the_posterior() {
        InsightSet next = InsightBook.apply(SET, new RecordFeedback("f1", "alice", "s2", 9, List.of("tabs"), 1, 0), T);

        assertThat(tabs(next).upVotes()).isEqualTo(1);
        assertThat(InsightScore.of(tabs(next), T)).isGreaterThan(InsightScore.of(TABS, T));
    }

    @Test
    void given_a_thumbs_up_when_the_person_changes_it_to_down_then_the_up_is_taken_back() {
        InsightSet up = InsightBook.apply(SET, new RecordFeedback("f1", "alice", "s2", 9, List.of("tabs"), 1, 0), T);
        InsightSet down = InsightBook.apply(up, new RecordFeedback("f2", "alice", "s2", 10, List.of("tabs"), -1, 1), T);

        assertThat(tabs(down).upVotes()).isZero();
        assertThat(tabs(down).downVotes()).isEqualTo(1);
        assertThat(InsightScore.of(tabs(down), T)).isLessThan(InsightScore.of(TABS, T));
    }

    @Test
    void given_a_protected_insight_when_it_is_distilled_again_then_its_words_stay_and_only_a_source_is_added() {
        InsightSet next = InsightBook.apply(SET, new RecordDistillation("d1", "alice", "s3", 8, List.of(6L, 8L),
                List.of(new Extracted(InsightCategory.IDENTITY, "Is called Ada.", 0.4))), T.plusSeconds(60));

        Insight name = next.find("name").orElseThrow();
        assertThat(name.confidence()).isEqualTo(1.0);
        assertThat(name.lastSeenAt()).isEqualTo(T);
        assertThat(name.sources()).containsExactly(new InsightSource("s3", List.of(6L, 8L)));
    }

    @Test
    void a_person_protects_and_unprotects_an_insight() {
        InsightSet on = InsightBook.apply(SET, new EditInsight("e1", "alice", "tabs", null, null, null, true), T);
        InsightSet off = InsightBook.apply(on, new EditInsight("e2", "alice", "tabs", null, null, null, false), T);

        assertThat(tabs(on).isProtected()).isTrue();
        assertThat(tabs(off).isProtected()).isFalse();
    }

    @Test
    void given_old_distilled_insights_when_a_rebuild_arrives_then_they_are_replaced_at_once_keeping_what_people_did() {
        InsightSet voted = InsightBook.apply(SET, new RecordFeedback("f1", "alice", "s2", 9, List.of("tabs"), 1, 0), T);
        Insight rebuiltTabs = Insight.distilled("new-tabs", InsightCategory.PREFERENCE, "Prefers tabs.", 0.7,
                new InsightSource("s1", List.of(2L, 3L)), T);
        Insight rebuiltGo = Insight.distilled("go", InsightCategory.SKILL, "writes Go", 0.6,
                new InsightSource("s1", List.of(2L, 3L)), T);

        InsightSet next = InsightBook.apply(voted, new ReplaceDistilled("r1", "alice", "rb1", List.of(rebuiltTabs, rebuiltGo),
                Map.of("s1", 3L, "s2", 12L)), T);

        assertThat(next.version()).isEqualTo(voted.version() + 1);
        // The same fact keeps its id, so votes recorded against it in the log still find it.
        assertThat(next.insights()).extracting(Insight::id).containsExactlyInAnyOrder("name", "tabs", "go");
        assertThat(next.find("tabs").orElseThrow().upVotes()).isEqualTo(1);
        assertThat(next.find("tabs").orElseThrow().text()).isEqualTo("Prefers tabs.");
        assertThat(next.distilledUpTo()).containsEntry("s2", 12L);
        assertThat(next.lastRebuildId()).isEqualTo("rb1");
    }

    @Test
    void given_a_rebuilt_insight_whose_id_is_taken_by_one_that_stays_then_the_one_that_stays_wins() {
        Insight clash = Insight.distilled("name", InsightCategory.SKILL, "writes Go", 0.6,
                new InsightSource("s1", List.of(2L)), T);

        InsightSet next = InsightBook.apply(SET, new ReplaceDistilled("r2", "alice", "rb2", List.of(clash), Map.of()), T);

        assertThat(next.insights()).extracting(Insight::id).containsExactly("name");
        assertThat(next.find("name").orElseThrow().text()).isEqualTo("is called Ada");
    }

    @Test
    void given_two_duplicates_when_a_refinement_merges_them_then_one_insight_keeps_both_sources_and_votes() {
        Insight spaces = new Insight("tabs2", InsightCategory.PREFERENCE, "likes tab indentation", 0.6,
                List.of(new InsightSource("s4", List.of(7L))), T, T, 2, 1, 0, false, false, false,
                Insight.Origin.DISTILLED);
        InsightSet set = new InsightSet("alice", 5, List.of(TABS, NAME, spaces), Map.of(), T, "c0");

        InsightSet next = InsightBook.apply(set, new ApplyRefinement("ref1", "alice", List.of(new Merge(
                List.of("tabs", "tabs2"), InsightCategory.PREFERENCE, "prefers tabs for indentation", 0.7))), T);

        assertThat(next.insights()).hasSize(2);
        Insight merged = next.insights().stream().filter(i -> !i.id().equals("name")).findFirst().orElseThrow();
        assertThat(merged.text()).isEqualTo("prefers tabs for indentation");
        assertThat(merged.sources()).hasSize(2);
        assertThat(merged.uses()).isEqualTo(2);
        assertThat(merged.upVotes()).isEqualTo(1);
    }

    @Test
    void given_a_refinement_that_names_a_protected_or_missing_insight_then_nothing_changes() {
        var touchesProtected = new ApplyRefinement("ref2", "alice", List.of(new Merge(List.of("tabs", "name"),
                InsightCategory.IDENTITY, "Ada prefers tabs", 0.9)));
        var touchesMissing = new ApplyRefinement("ref3", "alice", List.of(new Merge(List.of("tabs", "gone"),
                InsightCategory.PREFERENCE, "x", 0.9)));

        assertThat(InsightBook.apply(SET, touchesProtected, T).insights()).isEqualTo(SET.insights());
        assertThat(InsightBook.apply(SET, touchesMissing, T).insights()).isEqualTo(SET.insights());
    }
}
