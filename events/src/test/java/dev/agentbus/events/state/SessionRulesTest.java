package dev.agentbus.events.state;

import dev.agentbus.events.session.SessionEvent.ModelCallStarted;
import dev.agentbus.events.session.SessionEvent.SessionCreated;
import dev.agentbus.events.session.SessionEvent.SessionForked;
import dev.agentbus.events.session.SessionEvent.TurnEnded;
import dev.agentbus.events.session.SessionEvent.UserMessagePosted;
import dev.agentbus.events.session.SessionEvent.WaitEnded;
import dev.agentbus.events.session.SessionEvent.WaitScheduled;
import dev.agentbus.events.session.TurnOutcome;
import org.junit.jupiter.api.Test;

import static dev.agentbus.events.state.FoldScenario.given;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The questions the orchestrator and the gateway both ask of a session (may a message start a turn, may a person run
 * a tool, is there a turn to cancel, whose is it), given events / when an event / then the answer.
 */
class SessionRulesTest {
    /** Every answer at once, so a test states the whole rule set for a situation and a change to any shows. */
    record Answers(boolean turnInProgress, boolean acceptsMessage, boolean acceptsUserTool, boolean acceptsCancel) {
        static Answers of(SessionState s) {
            return new Answers(s.turnInProgress(), s.acceptsMessage(), s.acceptsUserTool(), s.acceptsCancel());
        }
    }

    static final Answers NOTHING = new Answers(false, false, false, false);
    static final Answers BETWEEN_TURNS = new Answers(false, true, true, false);
    static final Answers IN_A_TURN = new Answers(true, false, false, true);
    /** A turn that waits (a WAIT, or approvals) is woken by a message, which joins it. */
    static final Answers WAITING_TURN = new Answers(true, true, false, true);

    @Test
    void a_session_that_does_not_exist_accepts_nothing_and_belongs_to_no_one() {
        SessionState none = SessionState.initial("ses-1");

        assertThat(Answers.of(none)).isEqualTo(NOTHING);
        assertThat(none.isOwnedBy(FoldScenario.USER)).isFalse();
        assertThat(none.isOwnedBy(null)).isFalse();
    }

    @Test
    void an_idle_session_accepts_a_message_and_a_user_tool_but_has_nothing_to_cancel() {
        given()
                .when(new SessionCreated("t"))
                .then(s -> assertThat(Answers.of(s)).isEqualTo(BETWEEN_TURNS));
    }

    @Test
    void while_a_turn_runs_the_session_takes_no_message_and_no_user_tool_but_can_be_cancelled() {
        given(new SessionCreated("t"))
                .when(new UserMessagePosted("hi"))
                .then(s -> assertThat(Answers.of(s)).isEqualTo(IN_A_TURN));
    }

    @Test
    void a_turn_suspended_on_a_wait_is_still_under_way() {
        given(new SessionCreated("t"), new UserMessagePosted("remind me"), new ModelCallStarted("req-1", 1))
                .when(new WaitScheduled("w-1", FoldScenario.T0.plusSeconds(3600), "later", null))
                .then(s -> {
                    assertThat(s.status()).isEqualTo(SessionStatus.WAITING);
                    assertThat(Answers.of(s)).isEqualTo(WAITING_TURN);
                    assertThat(s.acceptsWhisper()).isTrue();
                });
    }

    @Test
    void a_wait_that_ends_inside_a_turn_leaves_the_turn_running() {
        given(new SessionCreated("t"), new UserMessagePosted("remind me"),
                new WaitScheduled("w-1", FoldScenario.T0.plusSeconds(60), null, null))
                .when(new WaitEnded("w-1"))
                .then(s -> assertThat(Answers.of(s)).isEqualTo(IN_A_TURN));
    }

    @Test
    void once_the_turn_ended_the_session_accepts_messages_again() {
        given(new SessionCreated("t"), new UserMessagePosted("hi"))
                .when(new TurnEnded(TurnOutcome.CANCELLED, null, "cancelled by the user"))
                .then(s -> assertThat(Answers.of(s)).isEqualTo(BETWEEN_TURNS));
    }

    @Test
    void a_fork_taken_in_the_middle_of_a_turn_starts_between_turns() {
        SessionState running = given(new SessionCreated("t"))
                .when(new UserMessagePosted("hi")).state();

        given()
                .when(new SessionForked("ses-0", 2, null, "fork", running))
                .then(s -> assertThat(Answers.of(s)).isEqualTo(BETWEEN_TURNS));
    }

    @Test
    void a_session_belongs_to_the_user_who_created_it_and_to_no_one_else() {
        given()
                .when(new SessionCreated("t"))
                .then(s -> {
                    assertThat(s.isOwnedBy(FoldScenario.USER)).isTrue();
                    assertThat(s.isOwnedBy("usr-bob")).isFalse();
                    assertThat(s.isOwnedBy(null)).isFalse();
                });
    }
}
