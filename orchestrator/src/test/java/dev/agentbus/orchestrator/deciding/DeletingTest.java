package dev.agentbus.orchestrator.deciding;

import dev.agentbus.events.input.SessionInput.CreateSession;
import dev.agentbus.events.input.SessionInput.DeleteSession;
import dev.agentbus.events.input.SessionInput.PostUserMessage;
import dev.agentbus.events.input.SessionInput.RecordToolResult;
import dev.agentbus.events.input.SessionInput.WakeUp;
import dev.agentbus.events.session.PermissionMode;
import dev.agentbus.events.session.SessionEvent.ApprovalRequested;
import dev.agentbus.events.session.SessionEvent.InputRejected;
import dev.agentbus.events.session.SessionEvent.ModelCallCompleted;
import dev.agentbus.events.session.SessionEvent.ModelCallStarted;
import dev.agentbus.events.session.SessionEvent.SessionCreated;
import dev.agentbus.events.session.SessionEvent.SessionDeleted;
import dev.agentbus.events.session.SessionEvent.ToolCallCompleted;
import dev.agentbus.events.session.SessionEvent.ToolCallRequested;
import dev.agentbus.events.session.SessionEvent.TurnEnded;
import dev.agentbus.events.session.SessionEvent.UserMessagePosted;
import dev.agentbus.events.session.SessionEvent.WaitScheduled;
import dev.agentbus.events.session.TokenUsage;
import dev.agentbus.events.session.ToolCallSpec;
import dev.agentbus.events.session.TurnOutcome;
import dev.agentbus.events.state.SessionStatus;
import dev.agentbus.events.tools.Risk;
import org.junit.jupiter.api.Test;

import java.util.List;

import static dev.agentbus.orchestrator.deciding.DeciderFixture.NOW;
import static dev.agentbus.orchestrator.deciding.DeciderFixture.given;
import static org.assertj.core.api.Assertions.assertThat;

/** Deleting a session: what runs is stopped, then the session takes nothing more, and its id is never reused. */
class DeletingTest {
    private static final String SHELL_ARGS = "{\"command\":\"ls\"}";

    @Test
    void an_idle_session_is_deleted_with_who_deleted_it_and_is_gone_from_then_on() {
        Decision d = given(new SessionCreated("t")).whenBy("alice", new DeleteSession());

        assertThat(d.events()).containsExactly(new SessionDeleted("alice"));
        assertThat(d.effects()).isEmpty();
        assertThat(d.state().status()).isEqualTo(SessionStatus.DELETED);
        assertThat(d.state().exists()).isFalse();
        assertThat(d.state().isOwnedBy(d.state().userId())).isFalse();
    }

    @Test
    void deleting_during_a_model_call_cancels_the_turn_and_stops_the_stream_first() {
        Decision d = given(new SessionCreated("t"), new UserMessagePosted("go"), new ModelCallStarted("r1", 1))
                .when(new DeleteSession());

        assertThat(d.events()).containsExactly(
                new TurnEnded(TurnOutcome.CANCELLED, null, "the session was deleted"),
                new SessionDeleted(DeciderFixture.USER));
        assertThat(d.effects()).containsExactly(new Effect.StopModelCall(DeciderFixture.SESSION, "r1"));
        assertThat(d.state().turn()).isNull();
    }

    @Test
    void deleting_while_an_approval_is_pending_answers_the_held_call_so_every_call_keeps_its_result() {
        Decision d = given(new SessionCreated("t", PermissionMode.NORMAL), new UserMessagePosted("go"),
                new ModelCallStarted("r1", 1),
                new ModelCallCompleted("r1", "m", "", null, List.of(new ToolCallSpec("c1", "shell", SHELL_ARGS)),
                        new TokenUsage(1, 1, 2), "tool_calls"),
                new ApprovalRequested("c1", "shell", SHELL_ARGS, Risk.HIGH, "normal mode", NOW.plusSeconds(60)))
                .when(new DeleteSession());

        assertThat(d.events()).hasSize(3);
        assertThat(d.events().get(0)).isInstanceOfSatisfying(ToolCallCompleted.class, c -> {
            assertThat(c.callId()).isEqualTo("c1");
            assertThat(c.ok()).isFalse();
        });
        assertThat(d.events().get(2)).isInstanceOf(SessionDeleted.class);
        assertThat(d.state().pendingApprovals()).isEmpty();
    }

    @Test
    void a_late_result_or_wake_up_for_a_deleted_session_is_dropped_unrecorded() {
        DeciderFixture deleted = given(new SessionCreated("t"), new UserMessagePosted("go"),
                new ModelCallStarted("r1", 1),
                new ModelCallCompleted("r1", "m", "", null, List.of(new ToolCallSpec("c1", "shell", SHELL_ARGS)),
                        new TokenUsage(1, 1, 2), "tool_calls"),
                new ToolCallRequested("c1", "shell", SHELL_ARGS, null, false),
                new WaitScheduled("w1", NOW.plusSeconds(5), "later", null),
                new TurnEnded(TurnOutcome.CANCELLED, null, "the session was deleted"),
                new SessionDeleted("alice"));

        Decision result = deleted.when(new RecordToolResult("c1", true, "out", null, null, false, 3, false,
                null, null, null));
        Decision wake = deleted.when(new WakeUp("w1"));

        assertThat(result.events()).isEmpty();
        assertThat(result.ignoredBecause()).isEqualTo("session s-1 was deleted");
        assertThat(wake.events()).isEmpty();
    }

    @Test
    void a_message_to_a_deleted_session_is_not_recorded_and_its_id_cannot_be_created_again() {
        DeciderFixture deleted = given(new SessionCreated("t"), new SessionDeleted("alice"));

        assertThat(deleted.when(new PostUserMessage("hello?")).events()).isEmpty();
        Decision again = deleted.when(new CreateSession("new", null));
        assertThat(again.events()).singleElement().isInstanceOfSatisfying(InputRejected.class,
                r -> assertThat(r.reason()).isEqualTo("session s-1 was deleted; its id cannot be used again"));
        assertThat(again.state().status()).isEqualTo(SessionStatus.DELETED);
    }
}
