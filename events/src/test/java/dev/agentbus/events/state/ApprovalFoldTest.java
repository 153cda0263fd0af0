package dev.agentbus.events.state;

import dev.agentbus.events.codec.EventCodec;
import dev.agentbus.events.session.ApprovalDecision;
import dev.agentbus.events.session.EventEnvelope;
import dev.agentbus.events.session.PermissionMode;
import dev.agentbus.events.session.SessionEvent;
import dev.agentbus.events.session.SessionEvent.ApprovalDecided;
import dev.agentbus.events.session.SessionEvent.ApprovalRequested;
import dev.agentbus.events.session.SessionEvent.ModelCallCompleted;
import dev.agentbus.events.session.SessionEvent.ModelCallStarted;
import dev.agentbus.events.session.SessionEvent.PermissionModeChanged;
import dev.agentbus.events.session.SessionEvent.SessionCreated;
import dev.agentbus.events.session.SessionEvent.SessionForked;
import dev.agentbus.events.session.SessionEvent.ToolCallCompleted;
import dev.agentbus.events.session.SessionEvent.TurnEnded;
import dev.agentbus.events.session.SessionEvent.UserMessagePosted;
import dev.agentbus.events.session.SessionEvent.WaitEnded;
import dev.agentbus.events.session.SessionEvent.WaitScheduled;
import dev.agentbus.events.session.TokenUsage;
import dev.agentbus.events.session.ToolCallSpec;
import dev.agentbus.events.session.TurnOutcome;
import dev.agentbus.events.tools.Risk;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import static dev.agentbus.events.state.FoldScenario.given;
import static org.assertj.core.api.Assertions.assertThat;

/** How permission modes and approvals fold: given events / when an event / then the state. */
class ApprovalFoldTest {
    private static final Instant EXPIRES = Instant.parse("2025-03-14T09:30:00Z");
    private static final String ARGS = "{\"command\":\"ls\"}";

    private static SessionEvent[] awaitingApproval() {
        return new SessionEvent[]{new SessionCreated("t", PermissionMode.NORMAL), new UserMessagePosted("go"),
                new ModelCallStarted("r1", 1),
                new ModelCallCompleted("r1", "m", "", null, List.of(new ToolCallSpec("c1", "shell", ARGS)),
                        TokenUsage.ZERO, "tool_calls"),
                new ApprovalRequested("c1", "shell", ARGS, Risk.HIGH, "normal mode", EXPIRES)};
    }

    @Test
    void a_session_takes_the_mode_it_was_created_with_and_one_created_before_modes_existed_runs_in_auto() {
        given().when(new SessionCreated("t", PermissionMode.MANUAL))
                .then(s -> assertThat(s.permissionMode()).isEqualTo(PermissionMode.MANUAL));
        given().when(new SessionCreated("t"))
                .then(s -> assertThat(s.permissionMode()).isEqualTo(PermissionMode.AUTO));
    }

    @Test
    void a_mode_change_only_sets_the_mode() {
        given(awaitingApproval()).when(new PermissionModeChanged(PermissionMode.MANUAL, "bob"))
                .thenComparedTo((before, after) -> {
                    assertThat(after.permissionMode()).isEqualTo(PermissionMode.MANUAL);
                    assertThat(after.pendingApprovals()).isEqualTo(before.pendingApprovals());
                    assertThat(after.status()).isEqualTo(SessionStatus.AWAITING_APPROVAL);
                });
    }

    @Test
    void a_requested_approval_is_listed_and_the_turn_awaits_it_with_the_call_still_open() {
        SessionState s = SessionFold.fold(FoldScenario.SESSION, envelopes(awaitingApproval()));

        assertThat(s.status()).isEqualTo(SessionStatus.AWAITING_APPROVAL);
        assertThat(s.turnInProgress()).isTrue();
        assertThat(s.acceptsMessage()).as("a message wakes the turn, denying what awaits approval").isTrue();
        assertThat(s.acceptsCancel()).isTrue();
        assertThat(s.pendingApprovals()).containsExactly(
                new PendingApproval("c1", "shell", ARGS, Risk.HIGH, "normal mode", EXPIRES));
        assertThat(s.pendingApproval("c1")).isPresent();
        assertThat(s.turn().openToolCalls()).containsExactly("c1");
        assertThat(s.toolCalls().get("c1").status()).isEqualTo(ToolCallView.Status.PROPOSED);
    }

    @Test
    void a_decision_removes_the_approval_and_the_turn_runs_again() {
        given(awaitingApproval()).when(new ApprovalDecided("c1", ApprovalDecision.APPROVED, null, "usr-ada"))
                .then(s -> {
                    assertThat(s.pendingApprovals()).isEmpty();
                    assertThat(s.status()).isEqualTo(SessionStatus.RUNNING);
                    assertThat(s.alwaysAllowed()).isEmpty();
                });
    }

    @Test
    void always_remembers_the_tool_for_the_rest_of_the_session() {
        given(awaitingApproval()).when(new ApprovalDecided("c1", ApprovalDecision.ALWAYS, null, "usr-ada"))
                .then(s -> {
                    assertThat(s.alwaysAllowed()).containsExactly("shell");
                    assertThat(s.requiresApproval("shell", Risk.HIGH)).isFalse();
                    assertThat(s.requiresApproval("run_command", Risk.HIGH)).isTrue();
                });
    }

    @Test
    void with_a_wait_and_an_approval_pending_the_session_shows_the_approval_then_the_wait() {
        SessionEvent[] events = append(awaitingApproval(),
                new WaitScheduled("w1", EXPIRES, "later", "c2"));
        SessionState both = SessionFold.fold(FoldScenario.SESSION, envelopes(events));
        assertThat(both.status()).isEqualTo(SessionStatus.AWAITING_APPROVAL);

        given(events).when(new ApprovalDecided("c1", ApprovalDecision.DENIED, "no", "usr-ada"))
                .then(s -> assertThat(s.status()).isEqualTo(SessionStatus.WAITING));
        given(events).when(new WaitEnded("w1"))
                .then(s -> assertThat(s.status()).isEqualTo(SessionStatus.AWAITING_APPROVAL));
    }

    @Test
    void the_end_of_the_turn_clears_its_approvals() {
        given(awaitingApproval()).when(new TurnEnded(TurnOutcome.CANCELLED, null, "cancelled by the user"))
                .then(s -> {
                    assertThat(s.pendingApprovals()).isEmpty();
                    assertThat(s.status()).isEqualTo(SessionStatus.IDLE);
                });
    }

    @Test
    void a_denial_is_told_to_the_model_as_the_calls_failed_result() {
        given(append(awaitingApproval(), new ApprovalDecided("c1", ApprovalDecision.DENIED, "not now", "usr-ada")))
                .when(new ToolCallCompleted("c1", false, null, "not run: the user usr-ada denied this call with the "
                        + "note: not now", null, false, 0, false))
                .then(s -> {
                    assertThat(s.turn().openToolCalls()).isEmpty();
                    assertThat(s.messages().getLast()).isInstanceOfSatisfying(Message.Tool.class,
                            m -> assertThat(m.content()).contains("not now"));
                });
    }

    @Test
    void a_snapshot_keeps_the_pending_approvals_the_mode_and_the_tools_allowed_always() {
        SessionEvent[] events = append(awaitingApproval(), new PermissionModeChanged(PermissionMode.MANUAL, "bob"));
        SessionState state = SessionFold.fold(FoldScenario.SESSION, envelopes(events));
        SessionState withAlways = new SessionState(state.sessionId(), state.userId(), state.title(), state.status(),
                state.lastSeq(), state.createdAt(), state.updatedAt(), state.messages(), state.toolCalls(),
                state.usage(), state.modelCalls(), state.turns(), state.turn(), state.pendingWait(), state.memory(),
                state.memoryVersion(), state.lastModel(), state.lastOutcome(), state.lastAnswer(), state.lastError(),
                state.shell(), state.checkpoint(), state.forkedFrom(), state.forkedAtSeq(), state.permissionMode(),
                state.pendingApprovals(), List.of("read"), state.queuedWhispers(), state.context(),
                state.planning());

        SessionSnapshot read = SessionSnapshot.decode(FoldScenario.SESSION,
                SessionSnapshot.of(0, 7, 0, 1, Instant.EPOCH, withAlways).encode());

        assertThat(read.state()).isEqualTo(withAlways);
        assertThat(read.state().pendingApprovals()).hasSize(1);
        assertThat(read.state().status()).isEqualTo(SessionStatus.AWAITING_APPROVAL);
    }

    @Test
    void a_fork_carries_the_pending_approvals_in_its_source_state_keeps_the_mode_and_answers_the_call_not_run() {
        SessionState source = SessionFold.fold(FoldScenario.SESSION, envelopes(append(awaitingApproval(),
                new ApprovalDecided("c0", ApprovalDecision.ALWAYS, null, "usr-ada"))));
        EventEnvelope fork = new EventEnvelope("evt-f", "ses-fork", 1, Instant.parse("2025-03-15T00:00:00Z"),
                "inp-f", FoldScenario.USER, new SessionForked(FoldScenario.SESSION, source.lastSeq(), null, "f",
                source));

        EventEnvelope read = EventCodec.decodeEvent(new String(EventCodec.encodeEvent(fork), StandardCharsets.UTF_8)
                .getBytes(StandardCharsets.UTF_8));
        SessionForked carried = (SessionForked) read.event();
        assertThat(carried.state().pendingApprovals()).isEqualTo(source.pendingApprovals());

        SessionState forked = SessionFold.evolve(SessionState.initial("ses-fork"), read);
        assertThat(forked.permissionMode()).isEqualTo(PermissionMode.NORMAL);
        assertThat(forked.status()).isEqualTo(SessionStatus.IDLE);
        assertThat(forked.pendingApprovals()).as("the fork starts idle, with no turn to hold a call").isEmpty();
        assertThat(forked.toolCalls().get("c1").status()).isEqualTo(ToolCallView.Status.COMPLETED);
        assertThat(forked.toolCalls().get("c1").error()).contains("not run");
    }

    private static SessionEvent[] append(SessionEvent[] events, SessionEvent more) {
        SessionEvent[] out = java.util.Arrays.copyOf(events, events.length + 1);
        out[events.length] = more;
        return out;
    }

    private static List<EventEnvelope> envelopes(SessionEvent... events) {
        List<EventEnvelope> out = new ArrayList<>();
        for (SessionEvent e : events) {
            out.add(FoldScenario.envelope(out.size() + 1, e));
        }
        return out;
    }
}
