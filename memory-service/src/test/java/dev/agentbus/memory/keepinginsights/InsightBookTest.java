package dev.agentbus.memory.keepinginsights;

import dev.agentbus.events.insights.Insight;
import dev.agentbus.events.insights.InsightCategory;
import dev.agentbus.events.insights.InsightCommand.ClearInsights;
import dev.agentbus.events.insights.InsightCommand.DeleteInsight;
import dev.agentbus.events.insights.InsightCommand.EditInsight;
import dev.agentbus.events.insights.InsightCommand.Extracted;
import dev.agentbus.events.insights.InsightCommand.RecordDistillation;
import dev.agentbus.events.insights.InsightSet;
import dev.agentbus.events.insights.InsightSource;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class InsightBookTest {
    private static final Instant T1 = Instant.parse("2026-11-20T08:00:00Z");
    private static final Instant T2 = Instant.parse("2026-11-22T10:00:00Z");

    private static RecordDistillation distilled(String cmd, String session, long end, Extracted... found) {
        return new RecordDistillation(cmd, "alice", session, end, List.of(end - 4, end - 1, end), List.of(found));
    }

    private static final Extracted TABS = new Extracted(InsightCategory.PREFERENCE, "prefers tabs over spaces", 0.8);

    @Test
    void a_distillation_adds_its_insights_with_their_source_and_marks_the_turn() {
        InsightSet next = InsightBook.apply(InsightSet.empty("alice"), distilled("c1", "s1", 6, TABS), T1);

        assertThat(next.version()).isEqualTo(1);
        assertThat(next.lastCommandId()).isEqualTo("c1");
        assertThat(next.distilledUpTo()).containsEntry("s1", 6L);
        assertThat(next.insights()).singleElement().satisfies(i -> {
            assertThat(i.category()).isEqualTo(InsightCategory.PREFERENCE);
            assertThat(i.text()).isEqualTo("prefers tabs over spaces");
            assertThat(i.confidence()).isEqualTo(0.8);
            assertThat(i.sources()).containsExactly(new InsightSource("s1", List.of(2L, 5L, 6L)));
            assertThat(i.createdAt()).isEqualTo(T1);
        });
    }

    @Test
    void applying_the_same_command_again_gives_the_same_ids() {
        InsightSet a = InsightBook.apply(InsightSet.empty("alice"), distilled("c1", "s1", 6, TABS), T1);
        InsightSet b = InsightBook.apply(InsightSet.empty("alice"), distilled("c1", "s1", 6, TABS), T1);

        assertThat(a).isEqualTo(b);
    }

    @Test
    void a_turn_distilled_already_changes_no_insight() {
        InsightSet once = InsightBook.apply(InsightSet.empty("alice"), distilled("c1", "s1", 6, TABS), T1);

        InsightSet twice = InsightBook.apply(once, distilled("c1", "s1", 6, TABS), T2);

        assertThat(twice.insights()).isEqualTo(once.insights());
        assertThat(twice.version()).isEqualTo(2);
    }

    @Test
    void an_unusable_answer_still_marks_the_turn_distilled() {
        InsightSet next = InsightBook.apply(InsightSet.empty("alice"), distilled("c1", "s1", 6), T1);

        assertThat(next.insights()).isEmpty();
        assertThat(next.distilled("s1", 6)).isTrue();
        assertThat(next.distilled("s1", 7)).isFalse();
    }

    @Test
    void the_same_fact_found_again_adds_a_source_and_refreshes_it_instead_of_a_second_insight() {
        InsightSet first = InsightBook.apply(InsightSet.empty("alice"), distilled("c1", "s1", 6, TABS), T1);

        InsightSet next = InsightBook.apply(first, distilled("c2", "s2", 10,
                new Extracted(InsightCategory.PREFERENCE, "Prefers  tabs over spaces.", 0.9)), T2);

        assertThat(next.insights()).singleElement().satisfies(i -> {
            assertThat(i.sources()).extracting(InsightSource::sessionId).containsExactly("s1", "s2");
            assertThat(i.lastSeenAt()).isEqualTo(T2);
            assertThat(i.createdAt()).isEqualTo(T1);
            assertThat(i.confidence()).isEqualTo(0.9);
        });
    }

    @Test
    void an_edit_changes_only_the_fields_it_names() {
        InsightSet set = InsightBook.apply(InsightSet.empty("alice"), distilled("c1", "s1", 6, TABS), T1);
        String id = set.insights().getFirst().id();

        InsightSet pinned = InsightBook.apply(set, new EditInsight("c2", "alice", id, null, null, true), T2);
        Insight p = pinned.insights().getFirst();
        assertThat(p.pinned()).isTrue();
        assertThat(p.text()).isEqualTo("prefers tabs over spaces");
        assertThat(p.lastSeenAt()).isEqualTo(T1);

        InsightSet edited = InsightBook.apply(pinned, new EditInsight("c3", "alice", id, " prefers 4-wide tabs ", true,
                null), T2);
        Insight e = edited.insights().getFirst();
        assertThat(e.text()).isEqualTo("prefers 4-wide tabs");
        assertThat(e.confidence()).isEqualTo(1.0);
        assertThat(e.disabled()).isTrue();
        assertThat(e.pinned()).isTrue();
        assertThat(e.sources()).isEqualTo(p.sources());
        assertThat(p.origin()).as("flags alone leave it distilled").isEqualTo(Insight.Origin.DISTILLED);
        assertThat(e.origin()).as("the person's words are theirs: a rebuild keeps them").isEqualTo(Insight.Origin.PERSON);
    }

    @Test
    void delete_removes_one_and_clear_removes_all_but_keeps_the_turns_distilled() {
        InsightSet set = InsightBook.apply(InsightSet.empty("alice"), distilled("c1", "s1", 6, TABS,
                new Extracted(InsightCategory.SKILL, "knows Kafka", 0.7)), T1);
        String first = set.insights().getFirst().id();

        InsightSet deleted = InsightBook.apply(set, new DeleteInsight("c2", "alice", first), T2);
        assertThat(deleted.insights()).extracting(Insight::text).containsExactly("knows Kafka");

        InsightSet cleared = InsightBook.apply(deleted, new ClearInsights("c3", "alice"), T2);
        assertThat(cleared.insights()).isEmpty();
        assertThat(cleared.version()).isEqualTo(3);
        assertThat(cleared.distilled("s1", 6)).isTrue();
    }

    @Test
    void an_edit_or_delete_of_an_unknown_id_changes_no_insight_but_is_versioned() {
        InsightSet set = InsightBook.apply(InsightSet.empty("alice"), distilled("c1", "s1", 6, TABS), T1);

        InsightSet next = InsightBook.apply(set, new DeleteInsight("c2", "alice", "nope"), T2);

        assertThat(next.insights()).isEqualTo(set.insights());
        assertThat(next.lastCommandId()).isEqualTo("c2");
    }
}
