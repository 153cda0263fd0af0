package dev.agentbus.gateway.readmodels.sessionlist;

import dev.agentbus.events.Json;
import dev.agentbus.events.session.EventEnvelope;
import dev.agentbus.events.session.SessionEvent;
import dev.agentbus.events.session.TokenUsage;
import dev.agentbus.events.session.TurnOutcome;
import dev.agentbus.events.state.SessionFold;
import dev.agentbus.events.state.SessionState;
import dev.agentbus.events.state.SessionStatus;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The sessions read model's fold, given events, then the row: no database needed. */
class SessionSummariesTest {
    private static final Instant T0 = Instant.parse("2026-11-20T09:00:00Z");

    private final List<EventEnvelope> log = new ArrayList<>();

    private EventEnvelope event(SessionEvent e) {
        EventEnvelope env = new EventEnvelope("e" + log.size(), "s1", log.size() + 1L,
                T0.plusSeconds(log.size()), null, "ada", e);
        log.add(env);
        return env;
    }

    private SessionSummary fold(SessionEvent... events) {
        SessionSummary row = null;
        for (SessionEvent e : events) {
            row = SessionSummaries.evolve(row, event(e));
        }
        return row;
    }

    @Test
    void a_created_session_is_idle_with_its_owner_title_and_times() {
        SessionSummary row = fold(new SessionEvent.SessionCreated("hello"));

        assertThat(row.userId()).isEqualTo("ada");
        assertThat(row.title()).isEqualTo("hello");
        assertThat(row.status()).isEqualTo(SessionStatus.IDLE);
        assertThat(row.createdAt()).isEqualTo(T0);
        assertThat(row.lastSeq()).isEqualTo(1);
        assertThat(row.usage()).isEqualTo(TokenUsage.ZERO);
    }

    @Test
    void a_turn_runs_adds_up_usage_keeps_the_last_answer_and_ends_idle_with_its_outcome() {
        SessionSummary running = fold(new SessionEvent.SessionCreated("t"),
                new SessionEvent.UserMessagePosted("what is 2+2?"),
                new SessionEvent.ModelCallStarted("r1", 1));
        assertThat(running.status()).isEqualTo(SessionStatus.RUNNING);
        assertThat(running.lastMessage()).isEqualTo("what is 2+2?");
        assertThat(running.lastMessageRole()).isEqualTo("user");

        SessionSummary done = SessionSummaries.evolve(SessionSummaries.evolve(running,
                        event(new SessionEvent.ModelCallCompleted("r1", "m", "4", null, List.of(),
                                new TokenUsage(800, 9, 809), "stop"))),
                event(new SessionEvent.TurnEnded(TurnOutcome.COMPLETED, "4", null)));

        assertThat(done.status()).isEqualTo(SessionStatus.IDLE);
        assertThat(done.inTurn()).isFalse();
        assertThat(done.lastOutcome()).isEqualTo(TurnOutcome.COMPLETED);
        assertThat(done.lastMessage()).isEqualTo("4");
        assertThat(done.lastMessageRole()).isEqualTo("assistant");
        assertThat(done.usage()).isEqualTo(new TokenUsage(800, 9, 809));
        assertThat(done.turns()).isEqualTo(1);
        assertThat(done.modelCalls()).isEqualTo(1);
        assertThat(done.lastModel()).isEqualTo("m");
    }

    @Test
    void status_agrees_with_the_session_fold_through_waits_inside_and_outside_a_turn() {
        List<SessionEvent> history = List.of(new SessionEvent.SessionCreated("w"),
                new SessionEvent.UserMessagePosted("wait a bit"),
                new SessionEvent.WaitScheduled("w1", T0.plusSeconds(60), "later", "call_w"),
                new SessionEvent.WaitEnded("w1"),
                new SessionEvent.TurnEnded(TurnOutcome.COMPLETED, "ok", null),
                new SessionEvent.WaitScheduled("w2", T0.plusSeconds(120), null, null),
                new SessionEvent.WaitEnded("w2"));
        SessionSummary row = null;
        SessionState state = SessionState.initial("s1");
        for (SessionEvent e : history) {
            EventEnvelope env = event(e);
            row = SessionSummaries.evolve(row, env);
            state = SessionFold.evolve(state, env);
            assertThat(row.status()).as("after " + e).isEqualTo(state.status());
        }
    }

    @Test
    void a_deleted_session_keeps_its_row_as_deleted_without_its_words() {
        SessionSummary row = fold(new SessionEvent.SessionCreated("t"), new SessionEvent.UserMessagePosted("secret"),
                new SessionEvent.TurnEnded(TurnOutcome.CANCELLED, null, "the session was deleted"),
                new SessionEvent.SessionDeleted("ada"));

        assertThat(row.status()).isEqualTo(SessionStatus.DELETED);
        assertThat(row.inTurn()).isFalse();
        assertThat(row.lastMessage()).isNull();
        assertThat(row.lastMessageRole()).isNull();
        assertThat(row.lastSeq()).isEqualTo(4);
    }

    @Test
    void an_event_already_applied_changes_nothing() {
        SessionSummary row = fold(new SessionEvent.SessionCreated("t"), new SessionEvent.UserMessagePosted("hi"));

        SessionSummary again = SessionSummaries.evolve(row, log.get(1));

        assertThat(again).isSameAs(row);
        assertThat(again.turns()).isEqualTo(1);
    }

    @Test
    void an_unknown_event_only_moves_the_seq_and_time() {
        SessionSummary row = fold(new SessionEvent.SessionCreated("t"),
                new SessionEvent.UnknownEvent("session.renamed.v9", Json.mapper().createObjectNode()));

        assertThat(row.lastSeq()).isEqualTo(2);
        assertThat(row.updatedAt()).isEqualTo(T0.plusSeconds(1));
        assertThat(row.title()).isEqualTo("t");
    }

    @Test
    void an_event_of_a_session_never_created_gives_no_row() {
        assertThat(SessionSummaries.evolve(null, event(new SessionEvent.UserMessagePosted("orphan")))).isNull();
    }

    @Test
    void a_fork_starts_idle_with_the_sources_totals_and_last_message() {
        List<EventEnvelope> source = new ArrayList<>();
        for (SessionEvent e : List.of(new SessionEvent.SessionCreated("src"),
                new SessionEvent.UserMessagePosted("question"),
                new SessionEvent.ModelCallCompleted("r", "m", "answer", null, List.of(), new TokenUsage(5, 5, 10),
                        "stop"))) {
            source.add(new EventEnvelope("x", "src", source.size() + 1L, T0, null, "ada", e));
        }
        SessionState at = SessionFold.fold("src", source);

        SessionSummary fork = fold(new SessionEvent.SessionForked("src", 3, null, "fork of src", at));

        assertThat(fork.status()).isEqualTo(SessionStatus.IDLE);
        assertThat(fork.forkedFrom()).isEqualTo("src");
        assertThat(fork.title()).isEqualTo("fork of src");
        assertThat(fork.usage().totalTokens()).isEqualTo(10);
        assertThat(fork.lastMessage()).isEqualTo("answer");
    }

    @Test
    void a_long_message_is_cut_for_the_list() {
        SessionSummary row = fold(new SessionEvent.SessionCreated("t"),
                new SessionEvent.UserMessagePosted("x".repeat(2000)));

        assertThat(row.lastMessage()).hasSize(SessionSummaries.PREVIEW_CHARS).endsWith("…");
    }
}
