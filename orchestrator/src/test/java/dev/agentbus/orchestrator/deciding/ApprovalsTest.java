package dev.agentbus.orchestrator.deciding;

import dev.agentbus.events.input.SessionInput.CancelTurn;
import dev.agentbus.events.input.SessionInput.CreateSession;
import dev.agentbus.events.input.SessionInput.DecideApproval;
import dev.agentbus.events.input.SessionInput.ExpireApproval;
import dev.agentbus.events.input.SessionInput.PostUserMessage;
import dev.agentbus.events.input.SessionInput.RecordModelResult;
import dev.agentbus.events.input.SessionInput.RecordToolResult;
import dev.agentbus.events.input.SessionInput.SetPermissionMode;
import dev.agentbus.events.session.ApprovalDecision;
import dev.agentbus.events.session.PermissionMode;
import dev.agentbus.events.session.SessionEvent;
import dev.agentbus.events.session.SessionEvent.ApprovalDecided;
import dev.agentbus.events.session.SessionEvent.ApprovalRequested;
import dev.agentbus.events.session.SessionEvent.InputRejected;
import dev.agentbus.events.session.SessionEvent.ModelCallCompleted;
import dev.agentbus.events.session.SessionEvent.ModelCallStarted;
import dev.agentbus.events.session.SessionEvent.PermissionModeChanged;
import dev.agentbus.events.session.SessionEvent.SessionCreated;
import dev.agentbus.events.session.SessionEvent.ToolCallCompleted;
import dev.agentbus.events.session.SessionEvent.ToolCallRequested;
import dev.agentbus.events.session.SessionEvent.TurnEnded;
import dev.agentbus.events.session.SessionEvent.UserMessagePosted;
import dev.agentbus.events.session.TokenUsage;
import dev.agentbus.events.session.ToolCallSpec;
import dev.agentbus.events.session.TurnOutcome;
import dev.agentbus.events.state.PendingApproval;
import dev.agentbus.events.state.SessionStatus;
import dev.agentbus.events.tools.Risk;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.List;

import static dev.agentbus.orchestrator.deciding.DeciderFixture.APPROVAL_TIMEOUT;
import static dev.agentbus.orchestrator.deciding.DeciderFixture.NOW;
import static dev.agentbus.orchestrator.deciding.DeciderFixture.given;
import static org.assertj.core.api.Assertions.assertThat;

/** Permission modes and approvals in the decider: given events, when an input, then events. */
class ApprovalsTest {
    private static final TokenUsage USAGE = new TokenUsage(10, 2, 12);
    private static final String SHELL_ARGS = "{\"command\":\"ls\"}";
    private static final String WRITE_ARGS = "{\"path\":\"a.txt\",\"content\":\"hi\"}";
    private static final String READ_ARGS = "{\"path\":\"a.txt\"}";

    private static RecordModelResult toolCalls(String requestId, ToolCallSpec... calls) {
        return new RecordModelResult(requestId, "m", "", null, List.of(calls), USAGE, "tool_calls");
    }

    private static ModelCallCompleted asked(String requestId, ToolCallSpec... calls) {
        return new ModelCallCompleted(requestId, "m", "", null, List.of(calls), USAGE, "tool_calls");
    }

    /** A session in {@code mode} with a turn awaiting model call r1. */
    private static DeciderFixture turnAwaiting(PermissionMode mode) {
        return given(new SessionCreated("t", mode), new UserMessagePosted("do it"), new ModelCallStarted("r1", 1));
    }

    private static ApprovalRequested shellApproval(String callId) {
        return new ApprovalRequested(callId, "shell", SHELL_ARGS, Risk.HIGH,
                "normal mode: shell runs commands, changes git history or reaches the network (high risk)",
                NOW.plus(APPROVAL_TIMEOUT));
    }

    /** A normal-mode session whose model asked for shell c1, now awaiting approval. */
    private static DeciderFixture awaitingShell() {
        return turnAwaiting(PermissionMode.NORMAL).and(asked("r1", new ToolCallSpec("c1", "shell", SHELL_ARGS)),
                shellApproval("c1"));
    }

    @Nested
    class ModesAndRisks {
        @ParameterizedTest(name = "{0} mode, {1} ({2} risk): approval needed = {3}")
        @CsvSource({
                "AUTO, read, LOW, false", "AUTO, write, MEDIUM, false", "AUTO, shell, HIGH, false",
                "NORMAL, read, LOW, false", "NORMAL, write, MEDIUM, true", "NORMAL, shell, HIGH, true",
                "MANUAL, read, LOW, true", "MANUAL, write, MEDIUM, true", "MANUAL, shell, HIGH, true"})
        void a_call_waits_for_a_person_exactly_when_its_mode_asks_for_its_risk(PermissionMode mode, String tool,
                                                                               Risk risk, boolean needed) {
            String args = tool.equals("shell") ? SHELL_ARGS : tool.equals("write") ? WRITE_ARGS : READ_ARGS;
            Decision d = turnAwaiting(mode).when(toolCalls("r1", new ToolCallSpec("c1", tool, args)));

            SessionEvent second = d.events().get(1);
            if (needed) {
                assertThat(second).isInstanceOfSatisfying(ApprovalRequested.class, a -> {
                    assertThat(a.tool()).isEqualTo(tool);
                    assertThat(a.risk()).isEqualTo(risk);
                    assertThat(a.reason()).startsWith(mode.wireName() + " mode: " + tool);
                });
                assertThat(d.events()).noneMatch(e -> e instanceof ToolCallRequested);
                assertThat(d.state().status()).isEqualTo(SessionStatus.AWAITING_APPROVAL);
            } else {
                assertThat(second).isEqualTo(new ToolCallRequested("c1", tool, args));
                assertThat(d.state().status()).isEqualTo(SessionStatus.RUNNING);
            }
            assertThat(d.events()).hasSize(2);
            assertThat(d.effects()).isEmpty();
        }

        @Test
        void the_wait_tool_never_waits_for_approval_since_it_only_pauses_the_session() {
            Decision d = turnAwaiting(PermissionMode.MANUAL)
                    .when(toolCalls("r1", new ToolCallSpec("c1", "wait", "{\"seconds\":60}")));

            assertThat(d.events()).noneMatch(e -> e instanceof ApprovalRequested);
            assertThat(d.state().status()).isEqualTo(SessionStatus.WAITING);
        }
    }

    @Nested
    class Requesting {
        @Test
        void a_call_needing_approval_is_listed_with_its_arguments_risk_reason_and_expiry_and_holds_the_turn() {
            Decision d = turnAwaiting(PermissionMode.NORMAL).when(toolCalls("r1",
                    new ToolCallSpec("c1", "shell", SHELL_ARGS)));

            assertThat(d.events().get(1)).isEqualTo(shellApproval("c1"));
            assertThat(d.state().pendingApprovals()).containsExactly(new PendingApproval("c1", "shell", SHELL_ARGS,
                    Risk.HIGH, shellApproval("c1").reason(), NOW.plus(APPROVAL_TIMEOUT)));
            assertThat(d.state().turn().openToolCalls()).containsExactly("c1");
            assertThat(d.effects()).as("the model is not called before the call is decided").isEmpty();
        }

        @Test
        void a_message_while_an_approval_is_pending_denies_it_and_joins_the_turn() {
            Decision d = awaitingShell().when(new PostUserMessage("never mind, just list the files"));

            // The whole rule, with a held call and a wait besides, is in SteeringTest.
            assertThat(d.events().getFirst()).isEqualTo(new ApprovalDecided("c1", ApprovalDecision.DENIED,
                    TurnInterruptions.WOKEN_NOTE, DeciderFixture.USER));
            assertThat(d.state().pendingApprovals()).isEmpty();
            assertThat(d.state().status()).isEqualTo(SessionStatus.RUNNING);
        }

        @Test
        void a_call_after_one_awaiting_approval_is_held_so_calls_still_run_in_the_order_asked() {
            Decision d = turnAwaiting(PermissionMode.NORMAL).when(toolCalls("r1",
                    new ToolCallSpec("c1", "write", WRITE_ARGS), new ToolCallSpec("c2", "read", READ_ARGS)));

            assertThat(d.events()).hasSize(2);
            assertThat(d.events().get(1)).isInstanceOf(ApprovalRequested.class);
            assertThat(d.state().turn().openToolCalls()).containsExactly("c1", "c2");
        }

        @Test
        void a_held_call_is_requested_after_the_one_before_it_is_approved() {
            Decision d = turnAwaiting(PermissionMode.NORMAL)
                    .and(asked("r1", new ToolCallSpec("c1", "write", WRITE_ARGS),
                            new ToolCallSpec("c2", "read", READ_ARGS)))
                    .and(new ApprovalRequested("c1", "write", WRITE_ARGS, Risk.MEDIUM, "r", NOW.plusSeconds(60)))
                    .when(new DecideApproval("c1", ApprovalDecision.APPROVED, null));

            assertThat(d.events()).containsExactly(
                    new ApprovalDecided("c1", ApprovalDecision.APPROVED, null, "alice"),
                    new ToolCallRequested("c1", "write", WRITE_ARGS),
                    new ToolCallRequested("c2", "read", READ_ARGS));
        }

        @Test
        void a_held_call_runs_under_the_mode_it_was_asked_in_even_after_a_stricter_one_was_set() {
            Decision d = turnAwaiting(PermissionMode.NORMAL)
                    .and(asked("r1", new ToolCallSpec("c1", "write", WRITE_ARGS),
                            new ToolCallSpec("c2", "read", READ_ARGS), new ToolCallSpec("c3", "write", WRITE_ARGS)))
                    .and(new ApprovalRequested("c1", "write", WRITE_ARGS, Risk.MEDIUM, "r", NOW.plusSeconds(60)),
                            new ApprovalRequested("c3", "write", WRITE_ARGS, Risk.MEDIUM, "r", NOW.plusSeconds(60)),
                            new ApprovalDecided("c3", ApprovalDecision.APPROVED, null, "alice"),
                            new PermissionModeChanged(PermissionMode.MANUAL, "alice"))
                    .when(new DecideApproval("c1", ApprovalDecision.APPROVED, null));

            assertThat(d.events()).as("c3, approved earlier, waited behind c1; c2 needed none when asked")
                    .containsExactly(
                            new ApprovalDecided("c1", ApprovalDecision.APPROVED, null, "alice"),
                            new ToolCallRequested("c1", "write", WRITE_ARGS),
                            new ToolCallRequested("c2", "read", READ_ARGS),
                            new ToolCallRequested("c3", "write", WRITE_ARGS));
            assertThat(d.state().status()).isEqualTo(SessionStatus.RUNNING);
        }

        @Test
        void a_session_created_without_a_mode_gets_the_installation_default_and_one_asked_for_overrides_it() {
            assertThat(given().withDefaultMode(PermissionMode.NORMAL).when(new CreateSession("t")).events())
                    .containsExactly(new SessionCreated("t", PermissionMode.NORMAL));
            Decision d = given().withDefaultMode(PermissionMode.NORMAL)
                    .when(new CreateSession("t", PermissionMode.MANUAL));
            assertThat(d.events()).containsExactly(new SessionCreated("t", PermissionMode.MANUAL));
            assertThat(d.state().permissionMode()).isEqualTo(PermissionMode.MANUAL);
        }
    }

    @Nested
    class Deciding {
        @Test
        void an_approved_call_is_requested_from_the_worker_and_the_turn_runs_again() {
            Decision d = awaitingShell().when(new DecideApproval("c1", ApprovalDecision.APPROVED, "ok"));

            assertThat(d.events()).containsExactly(
                    new ApprovalDecided("c1", ApprovalDecision.APPROVED, "ok", "alice"),
                    new ToolCallRequested("c1", "shell", SHELL_ARGS));
            assertThat(d.state().status()).isEqualTo(SessionStatus.RUNNING);
            assertThat(d.state().pendingApprovals()).isEmpty();
            assertThat(d.effects()).as("the model waits for the result").isEmpty();
        }

        @Test
        void a_denied_call_is_answered_with_the_persons_note_and_the_model_is_called_with_it() {
            Decision d = awaitingShell().when(new DecideApproval("c1", ApprovalDecision.DENIED, "use ls -la instead"));

            assertThat(d.events().get(0)).isEqualTo(
                    new ApprovalDecided("c1", ApprovalDecision.DENIED, "use ls -la instead", "alice"));
            assertThat(d.events().get(1)).isInstanceOfSatisfying(ToolCallCompleted.class, c -> {
                assertThat(c.callId()).isEqualTo("c1");
                assertThat(c.ok()).isFalse();
                assertThat(c.error()).contains("denied").contains("use ls -la instead");
            });
            assertThat(d.events().get(2)).isEqualTo(new ModelCallStarted("id-1", 2));
            assertThat(d.effects()).containsExactly(new Effect.CallModel("s-1", "id-1"));
            assertThat(d.state().toolCalls().get("c1").resultForModel()).contains("use ls -la instead");
        }

        @Test
        void always_runs_the_call_and_lets_later_calls_of_that_tool_skip_approval() {
            Decision decided = awaitingShell().when(new DecideApproval("c1", ApprovalDecision.ALWAYS, null));
            assertThat(decided.events()).containsExactly(
                    new ApprovalDecided("c1", ApprovalDecision.ALWAYS, null, "alice"),
                    new ToolCallRequested("c1", "shell", SHELL_ARGS));
            assertThat(decided.state().alwaysAllowed()).containsExactly("shell");

            Decision later = awaitingShell().and(decided.events().toArray(SessionEvent[]::new))
                    .and(new ToolCallCompleted("c1", true, "a.txt", null, null, false, 5, false),
                            new ModelCallStarted("r2", 2))
                    .when(toolCalls("r2", new ToolCallSpec("c2", "shell", "{\"command\":\"pwd\"}"),
                            new ToolCallSpec("c3", "write", WRITE_ARGS)));
            assertThat(later.events().get(1)).isEqualTo(new ToolCallRequested("c2", "shell", "{\"command\":\"pwd\"}"));
            assertThat(later.events().get(2)).as("only the tool allowed always skips approval")
                    .isInstanceOf(ApprovalRequested.class);
        }

        @Test
        void always_also_approves_the_other_calls_of_that_tool_still_pending() {
            Decision d = turnAwaiting(PermissionMode.NORMAL)
                    .and(asked("r1", new ToolCallSpec("c1", "shell", SHELL_ARGS),
                            new ToolCallSpec("c2", "shell", "{\"command\":\"pwd\"}")),
                            shellApproval("c1"), shellApproval("c2"))
                    .when(new DecideApproval("c1", ApprovalDecision.ALWAYS, null));

            assertThat(d.events()).containsExactly(
                    new ApprovalDecided("c1", ApprovalDecision.ALWAYS, null, "alice"),
                    new ApprovalDecided("c2", ApprovalDecision.APPROVED, "shell is allowed for the rest of the session",
                            "alice"),
                    new ToolCallRequested("c1", "shell", SHELL_ARGS),
                    new ToolCallRequested("c2", "shell", "{\"command\":\"pwd\"}"));
        }

        @Test
        void an_expired_approval_counts_as_denied_and_the_model_is_told() {
            Decision d = awaitingShell().when(new ExpireApproval("c1"));

            assertThat(d.events().get(0)).isEqualTo(new ApprovalDecided("c1", ApprovalDecision.EXPIRED, null, null));
            assertThat(d.events().get(1)).isInstanceOfSatisfying(ToolCallCompleted.class, c -> {
                assertThat(c.ok()).isFalse();
                assertThat(c.error()).contains("expired");
            });
            assertThat(d.events().get(2)).isInstanceOf(ModelCallStarted.class);
            assertThat(d.state().status()).isEqualTo(SessionStatus.RUNNING);
        }

        @Test
        void a_second_decision_for_the_same_call_is_rejected_with_a_reason_and_changes_nothing() {
            Decision d = awaitingShell().and(new ApprovalDecided("c1", ApprovalDecision.APPROVED, null, "alice"),
                            new ToolCallRequested("c1", "shell", SHELL_ARGS))
                    .when(new DecideApproval("c1", ApprovalDecision.DENIED, "no"));

            assertThat(d.events()).singleElement().isInstanceOfSatisfying(InputRejected.class, r -> {
                assertThat(r.inputType()).isEqualTo("decide_approval.v1");
                assertThat(r.reason()).contains("c1").contains("decided already");
            });
        }

        @Test
        void an_expiry_after_the_decision_is_ignored_without_an_event() {
            Decision d = awaitingShell().and(new ApprovalDecided("c1", ApprovalDecision.APPROVED, null, "alice"),
                            new ToolCallRequested("c1", "shell", SHELL_ARGS))
                    .when(new ExpireApproval("c1"));

            assertThat(d.events()).isEmpty();
            assertThat(d.ignoredBecause()).contains("no approval is pending");
        }

        @Test
        void a_decision_for_an_unknown_call_is_rejected() {
            Decision d = awaitingShell().when(new DecideApproval("nope", ApprovalDecision.APPROVED, null));

            assertThat(d.events()).singleElement().isInstanceOfSatisfying(InputRejected.class,
                    r -> assertThat(r.reason()).contains("no such call"));
        }

        @Test
        void a_person_cannot_decide_expired_nor_nothing() {
            assertThat(awaitingShell().when(new DecideApproval("c1", ApprovalDecision.EXPIRED, null)).events())
                    .singleElement().isInstanceOf(InputRejected.class);
            assertThat(awaitingShell().when(new DecideApproval("c1", null, null)).events())
                    .singleElement().isInstanceOf(InputRejected.class);
        }

        @Test
        void the_decision_names_who_decided_in_a_shared_session() {
            Decision d = awaitingShell().whenBy("bob", new DecideApproval("c1", ApprovalDecision.APPROVED, null));

            assertThat(d.events().getFirst()).isEqualTo(new ApprovalDecided("c1", ApprovalDecision.APPROVED, null, "bob"));
        }

        @Test
        void a_worker_result_for_a_call_that_awaits_approval_is_ignored() {
            Decision d = awaitingShell().when(new RecordToolResult("c1", true, "x", null, null, false, 1, false));

            assertThat(d.events()).isEmpty();
            assertThat(d.ignoredBecause()).contains("not requested");
        }
    }

    @Nested
    class ChangingTheMode {
        @Test
        void the_mode_can_change_while_a_turn_runs_and_applies_to_the_calls_asked_for_after() {
            Decision changed = turnAwaiting(PermissionMode.AUTO).when(new SetPermissionMode(PermissionMode.MANUAL));
            assertThat(changed.events()).containsExactly(new PermissionModeChanged(PermissionMode.MANUAL, "alice"));
            assertThat(changed.state().status()).isEqualTo(SessionStatus.RUNNING);

            Decision d = turnAwaiting(PermissionMode.AUTO).and(changed.events().toArray(SessionEvent[]::new))
                    .when(toolCalls("r1", new ToolCallSpec("c1", "read", READ_ARGS)));
            assertThat(d.events().get(1)).isInstanceOf(ApprovalRequested.class);
        }

        @Test
        void a_mode_that_no_longer_asks_for_a_pending_call_lets_it_run() {
            Decision d = awaitingShell().when(new SetPermissionMode(PermissionMode.AUTO));

            assertThat(d.events()).containsExactly(
                    new PermissionModeChanged(PermissionMode.AUTO, "alice"),
                    new ApprovalDecided("c1", ApprovalDecision.APPROVED, "the permission mode is now auto", "alice"),
                    new ToolCallRequested("c1", "shell", SHELL_ARGS));
            assertThat(d.state().status()).isEqualTo(SessionStatus.RUNNING);
        }

        @Test
        void a_stricter_mode_leaves_pending_approvals_pending() {
            Decision d = awaitingShell().when(new SetPermissionMode(PermissionMode.MANUAL));

            assertThat(d.events()).containsExactly(new PermissionModeChanged(PermissionMode.MANUAL, "alice"));
            assertThat(d.state().pendingApprovals()).hasSize(1);
        }

        @Test
        void a_mode_change_without_a_mode_is_rejected() {
            assertThat(awaitingShell().when(new SetPermissionMode(null)).events())
                    .singleElement().isInstanceOf(InputRejected.class);
        }

        @Test
        void the_mode_can_change_between_turns() {
            Decision d = given(new SessionCreated("t")).when(new SetPermissionMode(PermissionMode.NORMAL));

            assertThat(d.state().permissionMode()).isEqualTo(PermissionMode.NORMAL);
            assertThat(d.state().status()).isEqualTo(SessionStatus.IDLE);
        }
    }

    @Nested
    class Cancelling {
        @Test
        void cancel_answers_the_calls_that_await_approval_or_wait_behind_one_and_clears_the_approvals() {
            Decision d = turnAwaiting(PermissionMode.NORMAL)
                    .and(asked("r1", new ToolCallSpec("c1", "shell", SHELL_ARGS),
                            new ToolCallSpec("c2", "read", READ_ARGS)), shellApproval("c1"))
                    .when(new CancelTurn());

            assertThat(d.events()).hasSize(3);
            assertThat(d.events().subList(0, 2)).allSatisfy(e -> assertThat(e).isInstanceOfSatisfying(
                    ToolCallCompleted.class, c -> assertThat(c.error()).contains("cancelled")));
            assertThat(d.events().get(2)).isInstanceOfSatisfying(TurnEnded.class,
                    t -> assertThat(t.outcome()).isEqualTo(TurnOutcome.CANCELLED));
            assertThat(d.state().pendingApprovals()).isEmpty();
            assertThat(d.state().status()).isEqualTo(SessionStatus.IDLE);
            assertThat(d.state().acceptsMessage()).isTrue();
        }

        @Test
        void a_decision_after_the_cancel_is_rejected() {
            Decision cancelled = awaitingShell().when(new CancelTurn());
            Decision d = awaitingShell().and(cancelled.events().toArray(SessionEvent[]::new))
                    .when(new DecideApproval("c1", ApprovalDecision.APPROVED, null));

            assertThat(d.events()).singleElement().isInstanceOf(InputRejected.class);
        }
    }
}
