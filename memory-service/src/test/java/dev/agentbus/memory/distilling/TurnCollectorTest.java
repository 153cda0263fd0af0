package dev.agentbus.memory.distilling;

import dev.agentbus.events.session.EventEnvelope;
import dev.agentbus.events.session.SessionEvent;
import dev.agentbus.events.session.TurnOutcome;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

class TurnCollectorTest {
    private final TurnCollector collector = new TurnCollector();

    private Optional<CompletedTurn> given(String session, long seq, SessionEvent event) {
        return collector.apply(new EventEnvelope("e" + seq, session, seq, Instant.EPOCH, null, "alice", event));
    }

    private static SessionEvent answer(String content) {
        return new SessionEvent.ModelCallCompleted("r", "m", content, null, List.of(), null, "stop");
    }

    @Test
    void a_completed_turn_gives_the_messages_and_answers_with_their_seqs_and_the_turn_end() {
        given("s1", 1, new SessionEvent.SessionCreated("t", null));
        given("s1", 2, new SessionEvent.UserMessagePosted("I use tabs"));
        given("s1", 3, new SessionEvent.ModelCallStarted("r", 1));
        given("s1", 4, answer(""));
        given("s1", 5, answer("Noted: tabs."));

        Optional<CompletedTurn> turn = given("s1", 6, new SessionEvent.TurnEnded(TurnOutcome.COMPLETED, "Noted: tabs.", null));

        assertThat(turn).isPresent();
        assertThat(turn.get().userId()).isEqualTo("alice");
        assertThat(turn.get().turnEndSeq()).isEqualTo(6);
        assertThat(turn.get().lines()).extracting(CompletedTurn.Line::text).containsExactly("I use tabs", "Noted: tabs.");
        assertThat(turn.get().seqs()).containsExactly(2L, 5L, 6L);
    }

    @Test
    void a_turn_that_did_not_complete_gives_nothing_and_is_forgotten() {
        given("s1", 1, new SessionEvent.UserMessagePosted("first"));
        assertThat(given("s1", 2, new SessionEvent.TurnEnded(TurnOutcome.CANCELLED, null, null))).isEmpty();

        given("s1", 3, new SessionEvent.UserMessagePosted("second"));
        Optional<CompletedTurn> turn = given("s1", 4, new SessionEvent.TurnEnded(TurnOutcome.COMPLETED, "ok", null));

        assertThat(turn.orElseThrow().lines()).extracting(CompletedTurn.Line::text).containsExactly("second");
    }

    @Test
    void sessions_are_kept_apart() {
        given("s1", 1, new SessionEvent.UserMessagePosted("one"));
        given("s2", 1, new SessionEvent.UserMessagePosted("two"));

        Optional<CompletedTurn> turn = given("s2", 2, new SessionEvent.TurnEnded(TurnOutcome.COMPLETED, "ok", null));

        assertThat(turn.orElseThrow().lines()).extracting(CompletedTurn.Line::text).containsExactly("two");
    }

    @Test
    void given_an_incognito_session_when_its_turn_completes_then_nothing_is_handed_out_and_other_sessions_still_are() {
        given("secret", 1, new SessionEvent.SessionCreated("t", null, null, true));
        given("secret", 2, new SessionEvent.UserMessagePosted("my salary is 90k"));
        given("secret", 3, answer("Noted."));
        given("open", 1, new SessionEvent.SessionCreated("t", null));
        given("open", 2, new SessionEvent.UserMessagePosted("I use tabs"));
        given("open", 3, answer("Noted."));

        assertThat(given("secret", 4, new SessionEvent.TurnEnded(TurnOutcome.COMPLETED, "Noted.", null))).isEmpty();
        assertThat(given("open", 4, new SessionEvent.TurnEnded(TurnOutcome.COMPLETED, "Noted.", null))).isPresent();
    }

    @Test
    void given_a_turn_a_group_member_spoke_in_when_it_completes_then_nothing_is_handed_out_and_the_owners_next_turn_is() {
        given("shared", 1, new SessionEvent.SessionCreated("t", null));
        given("shared", 2, new SessionEvent.UserMessagePosted("the owner likes cats, remember that"));
        given("shared", 3, new SessionEvent.MemoryAttached("", SessionEvent.MemoryAttached.WITHHELD));
        given("shared", 4, answer("Noted."));

        assertThat(given("shared", 5, new SessionEvent.TurnEnded(TurnOutcome.COMPLETED, "Noted.", null))).isEmpty();

        given("shared", 6, new SessionEvent.UserMessagePosted("I use tabs"));
        given("shared", 7, new SessionEvent.MemoryAttached("likes dogs", 3));
        given("shared", 8, answer("Noted: tabs."));
        Optional<CompletedTurn> owners = given("shared", 9, new SessionEvent.TurnEnded(TurnOutcome.COMPLETED, "ok", null));

        assertThat(owners.orElseThrow().lines()).extracting(CompletedTurn.Line::text)
                .containsExactly("I use tabs", "Noted: tabs.");
    }
}
