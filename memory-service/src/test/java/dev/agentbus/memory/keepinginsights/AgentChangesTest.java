package dev.agentbus.memory.keepinginsights;

import dev.agentbus.events.insights.Insight;
import dev.agentbus.events.insights.InsightCategory;
import dev.agentbus.events.insights.InsightCommand.ApplyAgentChange;
import dev.agentbus.events.insights.InsightCommand.ReplaceDistilled;
import dev.agentbus.events.insights.InsightSet;
import dev.agentbus.events.insights.InsightSource;
import dev.agentbus.events.insights.MemoryAction;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The agent's {@code manage_memory} changes in the keeper: given a set, when {@code ApplyAgentChange}, then the next
 * set. The person's protection always wins, and each change applies once.
 */
class AgentChangesTest {
    private static final Instant T = Instant.parse("2026-11-22T10:00:00Z");
    private static final Instant LATER = T.plusSeconds(3600);
    private static final Insight TABS = new Insight("tabs", InsightCategory.PREFERENCE, "prefers tabs", 0.5,
            List.of(new InsightSource("s1", List.of(2L, 3L))), T, T, 4, 1, 0, false, true, false,
            Insight.Origin.DISTILLED);
    private static final Insight NAME = new Insight("name", InsightCategory.IDENTITY, "is called Ada", 1.0, List.of(),
            T, T, 0, 0, 0, false, false, true, Insight.Origin.PERSON);
    private static final InsightSet SET = new InsightSet("alice", 5, List.of(TABS, NAME), Map.of("s1", 3L), T, "c0");

    private static ApplyAgentChange change(long seq, MemoryAction action, String id, InsightCategory category,
                                           String text) {
        return new ApplyAgentChange("a" + seq, "alice", "s9", seq, action, id, category, text);
    }

    @Test
    void when_the_agent_adds_a_fact_then_it_is_the_agents_with_its_id_and_the_session_event_as_source() {
        InsightSet next = InsightBook.apply(SET, change(12, MemoryAction.ADD, "new", InsightCategory.PROJECT,
                " deploys on Fridays "), LATER);

        Insight added = next.find("new").orElseThrow();
        assertThat(added.text()).isEqualTo("deploys on Fridays");
        assertThat(added.category()).isEqualTo(InsightCategory.PROJECT);
        assertThat(added.origin()).isEqualTo(Insight.Origin.AGENT);
        assertThat(added.confidence()).isEqualTo(Insight.AGENT_CONFIDENCE);
        assertThat(added.sources()).containsExactly(new InsightSource("s9", List.of(12L)));
        assertThat(added.createdAt()).isEqualTo(LATER);
        assertThat(next.version()).isEqualTo(6);
        assertThat(next.usageUpTo()).containsEntry("s9", 12L);
    }

    @Test
    void given_a_change_applied_when_the_same_event_is_read_again_after_a_restart_then_nothing_changes_twice() {
        var add = change(12, MemoryAction.ADD, "new", InsightCategory.PROJECT, "deploys on Fridays");
        InsightSet once = InsightBook.apply(SET, add, LATER);
        InsightSet deleted = InsightBook.apply(once, change(13, MemoryAction.DELETE, "new", null, null), LATER);

        InsightSet again = InsightBook.apply(deleted, add, LATER);

        assertThat(again.insights()).isEqualTo(deleted.insights());
    }

    @Test
    void given_the_same_fact_when_the_agent_adds_it_then_the_existing_insight_gains_the_source_and_is_fresh_again() {
        InsightSet next = InsightBook.apply(SET, change(12, MemoryAction.ADD, "new", InsightCategory.PREFERENCE,
                "Prefers tabs."), LATER);

        assertThat(next.insights()).hasSize(2);
        Insight tabs = next.find("tabs").orElseThrow();
        assertThat(tabs.sources()).contains(new InsightSource("s9", List.of(12L)));
        assertThat(tabs.lastSeenAt()).isEqualTo(LATER);
        assertThat(tabs.confidence()).isEqualTo(Insight.AGENT_CONFIDENCE);
    }

    @Test
    void when_the_agent_updates_a_distilled_insight_then_it_gets_the_new_words_and_becomes_the_agents_keeping_its_history() {
        InsightSet next = InsightBook.apply(SET, change(12, MemoryAction.UPDATE, "tabs", InsightCategory.OPINION,
                "prefers tabs, width 4"), LATER);

        Insight tabs = next.find("tabs").orElseThrow();
        assertThat(tabs.text()).isEqualTo("prefers tabs, width 4");
        assertThat(tabs.category()).isEqualTo(InsightCategory.OPINION);
        assertThat(tabs.origin()).isEqualTo(Insight.Origin.AGENT);
        assertThat(tabs.lastSeenAt()).isEqualTo(LATER);
        assertThat(tabs.uses()).isEqualTo(4);
        assertThat(tabs.upVotes()).isEqualTo(1);
        assertThat(tabs.pinned()).isTrue();
        assertThat(tabs.sources()).hasSize(2);
    }

    @Test
    void given_an_agent_correction_when_the_insights_are_rebuilt_then_the_correction_stays() {
        InsightSet corrected = InsightBook.apply(SET, change(12, MemoryAction.UPDATE, "tabs", null,
                "prefers spaces now"), LATER);

        InsightSet rebuilt = InsightBook.apply(corrected, new ReplaceDistilled("r1", "alice", "rb", List.of(),
                Map.of()), LATER);

        assertThat(rebuilt.find("tabs")).get().extracting(Insight::text).isEqualTo("prefers spaces now");
    }

    @Test
    void when_the_agent_deletes_an_unprotected_insight_then_it_is_gone() {
        InsightSet next = InsightBook.apply(SET, change(12, MemoryAction.DELETE, "tabs", null, null), LATER);

        assertThat(next.find("tabs")).isEmpty();
        assertThat(next.insights()).containsExactly(NAME);
    }

    @Test
    void given_a_protected_insight_when_the_agent_updates_or_deletes_it_then_it_stays_as_the_person_left_it() {
        InsightSet updated = InsightBook.apply(SET, change(12, MemoryAction.UPDATE, "name", null, "is called Bob"),
                LATER);
        InsightSet deleted = InsightBook.apply(updated, change(13, MemoryAction.DELETE, "name", null, null), LATER);

        assertThat(deleted.insights()).isEqualTo(SET.insights());
        assertThat(deleted.usageUpTo()).as("counted all the same: never tried again").containsEntry("s9", 13L);
    }

    @Test
    void given_an_insight_deleted_meanwhile_when_the_agent_updates_it_then_nothing_comes_back() {
        InsightSet next = InsightBook.apply(SET, change(12, MemoryAction.UPDATE, "gone", null, "anything"), LATER);

        assertThat(next.insights()).isEqualTo(SET.insights());
    }

    @Test
    void given_a_protected_same_fact_when_the_agent_adds_it_then_only_the_source_is_added() {
        InsightSet next = InsightBook.apply(SET, change(12, MemoryAction.ADD, "new", InsightCategory.IDENTITY,
                "is called ada"), LATER);

        Insight name = next.find("name").orElseThrow();
        assertThat(name.text()).isEqualTo("is called Ada");
        assertThat(name.lastSeenAt()).isEqualTo(T);
        assertThat(name.confidence()).isEqualTo(1.0);
        assertThat(name.sources()).containsExactly(new InsightSource("s9", List.of(12L)));
    }
}
