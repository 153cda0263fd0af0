package dev.agentbus.api;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentbus.events.Json;
import dev.agentbus.events.models.ModelChoice;
import dev.agentbus.events.models.Sampling;
import dev.agentbus.events.session.SessionEvent;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code GET /api/v1/sessions/{id}}: given a folded session, when it is answered, then the documented JSON. */
class SessionDetailsTest {

    @Test
    void a_session_whose_turn_ended_is_answered_with_its_conversation_calls_shell_and_fork_origin() throws Exception {
        String wire = ApiJson.write(SessionDetails.of(Histories.finished()));

        assertThat(GoldenAnswers.pretty(wire)).isEqualTo(GoldenAnswers.load("session-finished.json"));
    }

    @Test
    void a_waiting_session_is_answered_with_its_turn_and_the_wait() throws Exception {
        String wire = ApiJson.write(SessionDetails.of(Histories.waiting()));

        assertThat(GoldenAnswers.pretty(wire)).isEqualTo(GoldenAnswers.load("session-waiting.json"));
    }

    @Test
    void a_session_awaiting_approval_is_answered_with_its_mode_and_the_pending_approval() throws Exception {
        String wire = ApiJson.write(SessionDetails.of(Histories.awaitingApproval()));

        assertThat(GoldenAnswers.pretty(wire)).isEqualTo(GoldenAnswers.load("session-awaiting-approval.json"));
        SessionDetails read = ApiJson.read(wire, SessionDetails.class);
        assertThat(read.status()).isEqualTo("AWAITING_APPROVAL");
        assertThat(read.permissionMode()).isEqualTo("normal");
        assertThat(read.pendingApprovals()).singleElement().satisfies(a -> {
            assertThat(a.callId()).isEqualTo("call_rm");
            assertThat(a.risk()).isEqualTo("high");
        });
    }

    @Test
    void a_plan_first_session_is_answered_with_its_todos_plan_and_task_state() throws Exception {
        String wire = ApiJson.write(SessionDetails.of(Histories.planning()));

        assertThat(GoldenAnswers.pretty(wire)).isEqualTo(GoldenAnswers.load("session-planning.json"));
        assertThat(ApiJson.read(wire, SessionDetails.class)).isEqualTo(SessionDetails.of(Histories.planning()));
        SessionDetails details = SessionDetails.of(Histories.planning());
        assertThat(PlanningView.of(Histories.planning().planning())).as("GET /planning: the same fields")
                .isEqualTo(new PlanningView(details.planFirst(), details.todos(), details.plan(), details.taskState()));
    }

    @Test
    void fields_without_a_value_are_left_out() throws Exception {
        var tree = Json.mapper().readTree(ApiJson.write(SessionDetails.of(Histories.waiting())));

        assertThat(tree.has("lastOutcome")).isFalse();
        assertThat(tree.has("shell")).isFalse();
        assertThat(tree.get("messages").get(0).has("toolCalls")).isFalse();
        assertThat(tree.get("toolCalls").get("call_r").has("ok")).isFalse();
        assertThat(tree.get("turn").has("pendingRequestId")).isFalse();
    }

    @Test
    void a_client_reads_the_answer_back_into_the_same_record() throws Exception {
        SessionDetails sent = SessionDetails.of(Histories.finished());

        SessionDetails read = ApiJson.read(ApiJson.write(sent), SessionDetails.class);

        assertThat(read).isEqualTo(sent);
        assertThat(read.toolCalls().keySet()).containsExactly("call_w", "call_s", "call_x", "user-1");
    }

    @Test
    void a_client_reads_an_answer_from_a_newer_gateway_with_fields_it_does_not_know() throws Exception {
        ObjectNode newer = (ObjectNode) Json.mapper().readTree(ApiJson.write(SessionDetails.of(Histories.waiting())));
        newer.put("mood", "cheerful");
        ((ObjectNode) newer.get("messages").get(0)).put("attachments", 2);

        SessionDetails read = ApiJson.read(newer.toString(), SessionDetails.class);

        assertThat(read.status()).isEqualTo("WAITING");
        assertThat(read.messages().getFirst().text()).isEqualTo("remind me at ten");
    }

    @Test
    void a_message_without_a_kind_is_still_read() throws Exception {
        SessionDetails read = ApiJson.read("{\"sessionId\":\"s\",\"messages\":[{\"seq\":2,\"text\":\"hi\"}]}",
                SessionDetails.class);

        assertThat(read.messages().getFirst().kind()).isNull();
        assertThat(read.messages().getFirst().text()).isEqualTo("hi");
    }

    @Test
    void a_sessions_own_model_and_what_its_last_call_asked_for_are_shown_and_absent_when_none() throws Exception {
        var asked = new ModelChoice("big-model",
                new Sampling(0.7, null, 4096));
        var state = Histories.fold("ses-5", List.of(
                new SessionEvent.SessionCreated("models"),
                new SessionEvent.ModelSettingsChanged("big-model",
                        new Sampling(0.7, null, null), "ada"),
                new SessionEvent.UserMessagePosted("hi"),
                new SessionEvent.ModelCallStarted("r1", 1, asked)));

        var model = Json.mapper().readTree(ApiJson.write(SessionDetails.of(state))).get("model");

        assertThat(model.toString()).isEqualTo("{\"chosen\":{\"model\":\"big-model\",\"temperature\":0.7},"
                + "\"changedBy\":\"ada\",\"lastCall\":{\"model\":\"big-model\",\"temperature\":0.7,"
                + "\"maxTokens\":4096}}");
        assertThat(Json.mapper().readTree(ApiJson.write(SessionDetails.of(Histories.waiting()))).has("model"))
                .isFalse();
    }

    @Test
    void a_parent_shows_its_children_and_a_child_its_parent_in_its_state_and_in_the_list() throws Exception {
        var parent = Histories.fold("ses-p", List.of(
                new SessionEvent.SessionCreated("parent"),
                new SessionEvent.UserMessagePosted("split it"),
                new SessionEvent.ModelCallStarted("r1", 1),
                new SessionEvent.ModelCallCompleted("r1", "m", "", null, List.of(
                        new dev.agentbus.events.session.ToolCallSpec("t1", "task", "{\"prompt\":\"a\"}"),
                        new dev.agentbus.events.session.ToolCallSpec("t2", "task", "{\"prompt\":\"b\"}")),
                        null, "tool_calls"),
                new SessionEvent.SubAgentStarted("t1", "ses-c1", "a", List.of("read"), 5),
                new SessionEvent.SubAgentStarted("t2", "ses-c2", "b", List.of("read"), 5),
                new SessionEvent.SubAgentFinished("t1", "ses-c1", dev.agentbus.events.session.TurnOutcome.COMPLETED)));
        var child = Histories.fold("ses-c1", List.of(new SessionEvent.SessionCreated("Sub-agent: a",
                dev.agentbus.events.session.PermissionMode.AUTO,
                new dev.agentbus.events.session.SubAgentOf("ses-p", "t1", List.of("read"), 5))));

        var parentJson = Json.mapper().readTree(ApiJson.write(SessionDetails.of(parent)));
        var childJson = Json.mapper().readTree(ApiJson.write(SessionDetails.of(child)));

        assertThat(parentJson.get("children").toString()).isEqualTo(
                "[{\"sessionId\":\"ses-c1\",\"callId\":\"t1\",\"description\":\"a\",\"status\":\"COMPLETED\"},"
                        + "{\"sessionId\":\"ses-c2\",\"callId\":\"t2\",\"description\":\"b\",\"status\":\"RUNNING\"}]");
        assertThat(parentJson.has("parent")).isFalse();
        assertThat(childJson.get("parent").toString()).isEqualTo(
                "{\"sessionId\":\"ses-p\",\"callId\":\"t1\",\"tools\":[\"read\"],\"maxIterations\":5}");
        assertThat(childJson.has("children")).isFalse();
        assertThat(SessionListEntry.of(child).parentSessionId()).isEqualTo("ses-p");
        assertThat(SessionListEntry.of(parent).parentSessionId()).isNull();
        assertThat(ApiJson.read(ApiJson.write(SessionDetails.of(parent)), SessionDetails.class))
                .isEqualTo(SessionDetails.of(parent));
    }
}
