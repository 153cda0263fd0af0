package dev.agentbus.memory.readinginsightevents;

import dev.agentbus.events.insights.InsightCategory;
import dev.agentbus.events.insights.InsightCommand;
import dev.agentbus.events.insights.MemoryAction;
import dev.agentbus.events.session.EventEnvelope;
import dev.agentbus.events.session.InjectedInsight;
import dev.agentbus.events.session.SessionEvent;
import dev.agentbus.events.session.Vote;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

class InsightEventLedgerTest {
    private final InsightEventLedger ledger = new InsightEventLedger();

    private Optional<InsightCommand> given(String session, long seq, SessionEvent event) {
        return ledger.apply(new EventEnvelope("e" + seq, session, seq, Instant.EPOCH, null, "alice", event));
    }

    private static SessionEvent.InsightsInjected injected(String... ids) {
        return new SessionEvent.InsightsInjected(List.of(ids).stream()
                .map(id -> new InjectedInsight(id, InsightCategory.SKILL, id)).toList());
    }

    @Test
    void given_an_injection_then_each_insight_is_used_once() {
        given("s", 1, new SessionEvent.SessionCreated("t"));

        assertThat(given("s", 3, injected("a", "b"))).get().isInstanceOfSatisfying(InsightCommand.RecordUse.class,
                u -> assertThat(u.insightIds()).containsExactly("a", "b"));
    }

    @Test
    void given_two_turns_with_different_insights_when_the_first_answer_is_voted_then_only_its_insights_get_the_vote() {
        given("s", 1, new SessionEvent.SessionCreated("t"));
        given("s", 3, injected("a"));
        given("s", 5, injected("b"));

        Optional<InsightCommand> vote = given("s", 9, new SessionEvent.FeedbackGiven(4, Vote.UP, "alice"));

        assertThat(vote).get().isInstanceOfSatisfying(InsightCommand.RecordFeedback.class, f -> {
            assertThat(f.insightIds()).containsExactly("a");
            assertThat(f.up()).isEqualTo(1);
            assertThat(f.down()).isZero();
        });
    }

    @Test
    void given_a_thumbs_up_when_the_same_answer_gets_a_thumbs_down_then_the_up_is_taken_back_and_a_repeat_is_nothing() {
        given("s", 3, injected("a"));
        given("s", 9, new SessionEvent.FeedbackGiven(4, Vote.UP, "alice"));

        Optional<InsightCommand> changed = given("s", 10, new SessionEvent.FeedbackGiven(4, Vote.DOWN, "alice"));
        Optional<InsightCommand> repeated = given("s", 11, new SessionEvent.FeedbackGiven(4, Vote.DOWN, "alice"));

        assertThat(changed).get().isInstanceOfSatisfying(InsightCommand.RecordFeedback.class, f -> {
            assertThat(f.up()).isEqualTo(-1);
            assertThat(f.down()).isEqualTo(1);
        });
        assertThat(repeated).isEmpty();
    }

    @Test
    void given_an_incognito_session_then_neither_injections_nor_votes_count() {
        given("s", 1, new SessionEvent.SessionCreated("t", null, null, true));

        assertThat(given("s", 3, injected("a"))).isEmpty();
        assertThat(given("s", 9, new SessionEvent.FeedbackGiven(4, Vote.UP, "alice"))).isEmpty();
    }

    @Test
    void the_same_event_read_again_gives_the_same_command_id() {
        given("s", 1, new SessionEvent.SessionCreated("t"));
        String first = given("s", 3, injected("a")).orElseThrow().commandId();
        ledger.clear();

        assertThat(given("s", 3, injected("a")).orElseThrow().commandId()).isEqualTo(first);
    }

    @Test
    void given_the_agent_changed_memory_then_the_change_goes_to_the_keeper_with_its_session_and_seq() {
        given("s", 1, new SessionEvent.SessionCreated("t"));

        Optional<InsightCommand> change = given("s", 7, new SessionEvent.MemoryManaged("c1", MemoryAction.ADD, "i-new",
                InsightCategory.PREFERENCE, "deploys on Fridays"));

        assertThat(change).get().isInstanceOfSatisfying(InsightCommand.ApplyAgentChange.class, a -> {
            assertThat(a.userId()).isEqualTo("alice");
            assertThat(a.sessionId()).isEqualTo("s");
            assertThat(a.seq()).isEqualTo(7);
            assertThat(a.action()).isEqualTo(MemoryAction.ADD);
            assertThat(a.insightId()).isEqualTo("i-new");
            assertThat(a.category()).isEqualTo(InsightCategory.PREFERENCE);
            assertThat(a.text()).isEqualTo("deploys on Fridays");
        });
    }

    @Test
    void given_an_incognito_session_then_an_agent_change_in_it_is_dropped() {
        given("s", 1, new SessionEvent.SessionCreated("t", null, null, true));

        assertThat(given("s", 7, new SessionEvent.MemoryManaged("c1", MemoryAction.DELETE, "i-old", null, null)))
                .isEmpty();
    }
}
