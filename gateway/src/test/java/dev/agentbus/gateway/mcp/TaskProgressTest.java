package dev.agentbus.gateway.mcp;

import dev.agentbus.events.session.EventEnvelope;
import dev.agentbus.events.session.SessionEvent;
import dev.agentbus.events.session.TokenUsage;
import dev.agentbus.events.session.TurnOutcome;
import dev.agentbus.events.state.PendingApproval;
import dev.agentbus.events.state.SessionFold;
import dev.agentbus.events.state.SessionState;
import dev.agentbus.events.tools.Risk;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/** Given the events of a session, when the MCP server follows a task, then it ends the wait where it should. */
class TaskProgressTest {
    static final String SESSION = "s-1";
    static final String OUR_INPUT = "input-ours";
    static final Instant EXPIRES = Instant.parse("2030-01-01T00:00:00Z");

    private long seq;

    @Test
    void the_turn_our_message_began_ends_with_the_agents_final_answer() {
        TaskProgress progress = TaskProgress.ofMessage(OUR_INPUT);

        List<TaskProgress.Outcome> outcomes = feed(progress,
                event(OUR_INPUT, new SessionEvent.UserMessagePosted("write the notes")),
                event(null, new SessionEvent.ModelCallStarted("r1", 1)),
                event(null, new SessionEvent.TurnEnded(TurnOutcome.COMPLETED, "Notes written.", null)));

        assertThat(outcomes).containsExactly(new TaskProgress.Outcome.Ended(TurnOutcome.COMPLETED, "Notes written.",
                null));
    }

    @Test
    void the_end_of_someone_elses_turn_before_ours_began_is_not_our_answer() {
        TaskProgress progress = TaskProgress.ofMessage(OUR_INPUT);

        List<TaskProgress.Outcome> outcomes = feed(progress,
                event("input-theirs", new SessionEvent.UserMessagePosted("theirs")),
                event(null, new SessionEvent.TurnEnded(TurnOutcome.COMPLETED, "their answer", null)),
                event(OUR_INPUT, new SessionEvent.UserMessagePosted("ours")),
                event(null, new SessionEvent.TurnEnded(TurnOutcome.COMPLETED, "our answer", null)));

        assertThat(outcomes).extracting(o -> ((TaskProgress.Outcome.Ended) o).answer()).containsExactly("our answer");
    }

    @Test
    void a_refused_message_ends_the_wait_with_the_orchestrators_reason() {
        TaskProgress progress = TaskProgress.ofMessage(OUR_INPUT);

        List<TaskProgress.Outcome> outcomes = feed(progress, event(OUR_INPUT, new SessionEvent.InputRejected(
                OUR_INPUT, "post_user_message.v1", "session s-1 is running")));

        assertThat(outcomes).containsExactly(new TaskProgress.Outcome.Refused(
                "the message was refused: session s-1 is running"));
    }

    @Test
    void a_call_that_needs_approval_ends_the_wait_naming_the_call_and_nothing_after_it_counts() {
        TaskProgress progress = TaskProgress.ofMessage(OUR_INPUT);

        List<TaskProgress.Outcome> outcomes = feed(progress,
                event(OUR_INPUT, new SessionEvent.UserMessagePosted("clean up")),
                event(null, new SessionEvent.ApprovalRequested("c1", "shell", "{\"command\":\"rm -rf build\"}",
                        Risk.HIGH, "runs a command", EXPIRES)),
                event(null, new SessionEvent.TurnEnded(TurnOutcome.COMPLETED, "later", null)));

        assertThat(outcomes).containsExactly(new TaskProgress.Outcome.AwaitingApproval(List.of(new PendingApproval(
                "c1", "shell", "{\"command\":\"rm -rf build\"}", Risk.HIGH, "runs a command", EXPIRES))));
    }

    @Test
    void following_a_turn_under_way_waits_through_its_approvals_to_its_end() {
        TaskProgress progress = TaskProgress.ofRunningTurn();

        List<TaskProgress.Outcome> outcomes = feed(progress,
                event(null, new SessionEvent.ApprovalRequested("c1", "shell", "{}", Risk.HIGH, null, EXPIRES)),
                event(null, new SessionEvent.ApprovalDecided("c1", dev.agentbus.events.session.ApprovalDecision
                        .APPROVED, null, "ada")),
                event(null, new SessionEvent.TurnEnded(TurnOutcome.COMPLETED, "after the approval", null)));

        assertThat(outcomes).containsExactly(new TaskProgress.Outcome.Ended(TurnOutcome.COMPLETED,
                "after the approval", null));
    }

    @Test
    void following_a_running_turn_takes_the_next_end_whoever_began_it() {
        TaskProgress progress = TaskProgress.ofRunningTurn();

        List<TaskProgress.Outcome> outcomes = feed(progress,
                event(null, new SessionEvent.ToolCallCompleted("c1", true, "ok", null, null, false, 3, false)),
                event(null, new SessionEvent.TurnEnded(TurnOutcome.ERROR, null, "the model server is down")));

        assertThat(outcomes).containsExactly(new TaskProgress.Outcome.Ended(TurnOutcome.ERROR, null,
                "the model server is down"));
    }

    @Test
    void a_session_deleted_while_waiting_ends_the_wait() {
        TaskProgress progress = TaskProgress.ofRunningTurn();

        assertThat(feed(progress, event(null, new SessionEvent.SessionDeleted("ada"))))
                .containsExactly(new TaskProgress.Outcome.Refused("session s-1 was deleted"));
    }

    @Test
    void a_session_at_rest_answers_from_its_state_and_a_running_one_needs_following() {
        SessionState idle = fold(new SessionEvent.SessionCreated("t"), new SessionEvent.UserMessagePosted("hi"),
                new SessionEvent.ModelCallCompleted("r1", "m", "Hello.", null, List.of(), TokenUsage.ZERO, "stop"),
                new SessionEvent.TurnEnded(TurnOutcome.COMPLETED, "Hello.", null));
        SessionState fresh = fold(new SessionEvent.SessionCreated("t"));
        SessionState running = fold(new SessionEvent.SessionCreated("t"), new SessionEvent.UserMessagePosted("hi"));

        assertThat(TaskProgress.of(idle)).contains(new TaskProgress.Outcome.Ended(TurnOutcome.COMPLETED, "Hello.",
                null));
        assertThat(TaskReport.of(SESSION, TaskProgress.of(fresh).orElseThrow(), "/x").status()).isEqualTo("idle");
        assertThat(TaskProgress.of(running)).isEmpty();
        assertThat(TaskProgress.stillOpen(running)).as("a wait that ran out on a turn at work").isEmpty();
    }

    @Test
    void a_wait_that_runs_out_on_a_turn_held_for_approval_names_the_calls() {
        SessionState held = fold(new SessionEvent.SessionCreated("t"), new SessionEvent.UserMessagePosted("hi"),
                new SessionEvent.ModelCallStarted("r1", 1),
                new SessionEvent.ModelCallCompleted("r1", "m", null, null, List.of(
                        new dev.agentbus.events.session.ToolCallSpec("c1", "shell", "{}")), TokenUsage.ZERO,
                        "tool_calls"),
                new SessionEvent.ApprovalRequested("c1", "shell", "{}", Risk.HIGH, "runs a command", EXPIRES));

        assertThat(TaskProgress.of(held)).as("await_task waits for the decision").isEmpty();
        assertThat(TaskProgress.stillOpen(held)).contains(new TaskProgress.Outcome.AwaitingApproval(List.of(
                new PendingApproval("c1", "shell", "{}", Risk.HIGH, "runs a command", EXPIRES))));
    }

    @Test
    void the_report_tells_a_model_the_answer_the_session_and_what_to_do_about_an_approval() {
        TaskReport done = TaskReport.of(SESSION, new TaskProgress.Outcome.Ended(TurnOutcome.COMPLETED, "42", null),
                "/api/v1/sessions/s-1");
        TaskReport waiting = TaskReport.of(SESSION, new TaskProgress.Outcome.AwaitingApproval(List.of(
                new PendingApproval("c1", "shell", "{\"command\":\"ls\"}", Risk.HIGH, null, EXPIRES))),
                "/api/v1/sessions/s-1");
        TaskReport failed = TaskReport.of(SESSION, new TaskProgress.Outcome.Ended(TurnOutcome.ERROR, null,
                "model down"), "/api/v1/sessions/s-1");

        assertThat(done.text()).isEqualTo("42\n\n[session_id: s-1, status: completed]");
        assertThat(done.failed()).isFalse();
        assertThat(waiting.text()).contains("approve").contains("/api/v1/sessions/s-1/approvals/{callId}")
                .contains("await_task").contains("- shell {\"command\":\"ls\"} (callId c1)")
                .endsWith("[session_id: s-1, status: awaiting_approval]");
        assertThat(waiting.structured()).containsEntry("status", "awaiting_approval");
        assertThat(failed.failed()).isTrue();
        assertThat(failed.text()).startsWith("model down");
        assertThat(TaskReport.stillRunning(SESSION, 50).text()).contains("still running after 50 s")
                .contains("await_task");
    }

    @Test
    void a_wait_is_the_default_without_a_time_out_and_held_within_the_maximum() {
        McpSettings settings = new McpSettings(50, 600);

        assertThat(settings.waitFor(null)).isEqualTo(50);
        assertThat(settings.waitFor(5)).isEqualTo(5);
        assertThat(settings.waitFor(100_000)).isEqualTo(600);
        assertThat(settings.waitFor(-3)).isEqualTo(1);
    }

    private List<TaskProgress.Outcome> feed(TaskProgress progress, EventEnvelope... events) {
        List<TaskProgress.Outcome> out = new ArrayList<>();
        for (EventEnvelope e : events) {
            progress.onEvent(e).ifPresent(out::add);
        }
        return out;
    }

    private EventEnvelope event(String causationId, SessionEvent event) {
        return new EventEnvelope(UUID.randomUUID().toString(), SESSION, ++seq, Instant.now(), causationId, "ada",
                event);
    }

    private SessionState fold(SessionEvent... events) {
        SessionState state = SessionState.initial(SESSION);
        for (SessionEvent e : events) {
            state = SessionFold.evolve(state, event(null, e));
        }
        return state;
    }
}
