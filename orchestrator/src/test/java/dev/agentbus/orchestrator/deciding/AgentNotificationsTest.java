package dev.agentbus.orchestrator.deciding;

import dev.agentbus.events.session.PermissionMode;
import dev.agentbus.events.session.SessionEvent;
import dev.agentbus.events.session.SessionEvent.ApprovalRequested;
import dev.agentbus.events.session.SessionEvent.NotificationPosted;
import dev.agentbus.events.session.SessionEvent.PlanFirstChanged;
import dev.agentbus.events.session.SessionEvent.SessionCreated;
import dev.agentbus.events.session.SessionEvent.ToolCallCompleted;
import dev.agentbus.events.session.SessionEvent.ToolCallRequested;
import dev.agentbus.events.session.Urgency;
import dev.agentbus.events.state.SessionStatus;
import dev.agentbus.events.tools.Risk;
import dev.agentbus.events.tools.ToolCatalog;
import dev.agentbus.events.tools.ToolSpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static dev.agentbus.orchestrator.deciding.PlanningToolsTest.call;
import static dev.agentbus.orchestrator.deciding.PlanningToolsTest.calls;
import static dev.agentbus.orchestrator.deciding.PlanningToolsTest.changes;
import static dev.agentbus.orchestrator.deciding.PlanningToolsTest.resultOf;
import static dev.agentbus.orchestrator.deciding.PlanningToolsTest.turnAwaiting;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The agent's {@code send_notification} in the decider: given a turn, when the model calls it, then the orchestrator
 * records the notification and the call's result itself, with no sandbox, and the model goes on.
 */
class AgentNotificationsTest {

    @Test
    void the_catalogue_offers_it_to_the_model_as_a_low_risk_tool_the_orchestrator_answers() {
        ToolSpec spec = ToolCatalog.find("send_notification").orElseThrow();
        assertThat(spec.executor()).isEqualTo(ToolSpec.Executor.ORCHESTRATOR);
        assertThat(spec.risk()).isEqualTo(Risk.LOW);
        assertThat(spec.userOnly()).isFalse();
        assertThat(ToolCatalog.TOOLS).contains(spec);
        assertThat(ToolCatalog.workerToolNames()).doesNotContain("send_notification");
    }

    @Test
    void a_call_records_the_notification_for_the_user_and_its_result_and_the_model_goes_on() {
        Decision d = turnAwaiting().when(calls("r1",
                call("c1", "send_notification", "{\"message\":\"  The nightly report is ready. \"}")));

        assertThat(changes(d)).containsExactly(
                new NotificationPosted("The nightly report is ready.", null, Urgency.NORMAL, "c1"));
        ToolCallCompleted result = resultOf(d, "c1");
        assertThat(result.ok()).isTrue();
        assertThat(result.output()).isEqualTo("Notification sent (normal urgency). The user finds it in their "
                + "notifications.");
        assertThat(d.events()).as("no sandbox involved").noneMatch(e -> e instanceof ToolCallRequested);
        assertThat(d.effects()).as("answered at once, so the model is called again")
                .singleElement().isInstanceOf(Effect.CallModel.class);
        assertThat(d.state().status()).isEqualTo(SessionStatus.RUNNING);
    }

    @Test
    void the_notification_comes_before_its_result_so_the_user_has_it_once_the_model_hears_it_was_sent() {
        Decision d = turnAwaiting().when(calls("r1",
                call("c1", "send_notification", "{\"message\":\"done\",\"urgency\":\"HIGH\"}")));

        SessionEvent first = d.events().get(1);
        assertThat(first).isEqualTo(new NotificationPosted("done", null, Urgency.HIGH, "c1"));
        assertThat(((NotificationPosted) first).byAgent()).isTrue();
        assertThat(d.events().get(2)).isInstanceOf(ToolCallCompleted.class);
        assertThat(resultOf(d, "c1").output()).startsWith("Notification sent (high urgency).");
    }

    @ParameterizedTest
    @ValueSource(strings = {"{}", "{\"message\":\"   \"}", "{\"message\":42}"})
    void a_call_without_a_message_fails_and_notifies_nobody(String args) {
        Decision d = turnAwaiting().when(calls("r1", call("c1", "send_notification", args)));

        assertThat(changes(d)).isEmpty();
        assertThat(resultOf(d, "c1").ok()).isFalse();
        assertThat(resultOf(d, "c1").error()).isEqualTo("send_notification needs message: the text for the user");
        assertThat(d.effects()).as("the model hears what to fix").singleElement().isInstanceOf(Effect.CallModel.class);
    }

    @Test
    void a_message_longer_than_the_queue_keeps_is_refused_so_the_model_shortens_it() {
        Decision d = turnAwaiting().when(calls("r1",
                call("c1", "send_notification", "{\"message\":\"" + "x".repeat(501) + "\"}")));

        assertThat(changes(d)).isEmpty();
        assertThat(resultOf(d, "c1").error()).startsWith("the message has 501 characters; a notification has at "
                + "most 500");
    }

    @ParameterizedTest
    @ValueSource(strings = {"\"urgent\"", "3", "true"})
    void an_unknown_urgency_fails(String urgency) {
        Decision d = turnAwaiting().when(calls("r1",
                call("c1", "send_notification", "{\"message\":\"hi\",\"urgency\":" + urgency + "}")));

        assertThat(changes(d)).isEmpty();
        assertThat(resultOf(d, "c1").error()).isEqualTo("urgency must be low, normal or high");
    }

    @Test
    void it_never_waits_for_approval_even_in_manual_mode_since_it_only_reaches_the_sessions_own_person() {
        DeciderFixture f = DeciderFixture.given(new SessionCreated("t", PermissionMode.MANUAL))
                .and(new SessionEvent.UserMessagePosted("go"), new SessionEvent.ModelCallStarted("r1", 1));

        Decision d = f.when(calls("r1", call("c1", "send_notification", "{\"message\":\"hi\"}")));

        assertThat(d.events()).noneMatch(e -> e instanceof ApprovalRequested);
        assertThat(changes(d)).containsExactly(new NotificationPosted("hi", null, Urgency.NORMAL, "c1"));
    }

    @Test
    void in_plan_first_mode_it_waits_for_an_approved_plan_like_every_tool_that_is_not_a_planning_tool() {
        DeciderFixture f = DeciderFixture.given(new SessionCreated("t", PermissionMode.AUTO),
                new PlanFirstChanged(true, DeciderFixture.USER))
                .and(new SessionEvent.UserMessagePosted("go"), new SessionEvent.ModelCallStarted("r1", 1));

        Decision d = f.when(calls("r1", call("c1", "send_notification", "{\"message\":\"hi\"}")));

        assertThat(changes(d)).isEmpty();
        assertThat(resultOf(d, "c1").error()).startsWith("not run: plan-first mode.");
    }

    @Test
    void a_persons_notification_is_not_the_agents() {
        assertThat(new NotificationPosted("hi", "alice").byAgent()).isFalse();
        assertThat(new NotificationPosted("hi", "alice").urgency()).isNull();
    }
}
