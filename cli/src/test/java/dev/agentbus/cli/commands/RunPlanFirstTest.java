package dev.agentbus.cli.commands;

import dev.agentbus.cli.FakeGateway;
import dev.agentbus.cli.OnFakeGateway;
import dev.agentbus.cli.FakeGateway.SseScript;
import dev.agentbus.events.session.ApprovalDecision;
import dev.agentbus.events.session.PermissionMode;
import dev.agentbus.events.session.SessionEvent;
import dev.agentbus.events.session.SessionEvent.ApprovalDecided;
import dev.agentbus.events.session.SessionEvent.ApprovalRequested;
import dev.agentbus.events.session.SessionEvent.ModelCallCompleted;
import dev.agentbus.events.session.SessionEvent.ModelCallStarted;
import dev.agentbus.events.session.SessionEvent.PlanCreated;
import dev.agentbus.events.session.SessionEvent.PlanFirstChanged;
import dev.agentbus.events.session.SessionEvent.SessionCreated;
import dev.agentbus.events.session.SessionEvent.ToolCallCompleted;
import dev.agentbus.events.session.SessionEvent.TurnEnded;
import dev.agentbus.events.session.SessionEvent.UserMessagePosted;
import dev.agentbus.events.session.TokenUsage;
import dev.agentbus.events.session.ToolCallSpec;
import dev.agentbus.events.session.TurnOutcome;
import dev.agentbus.events.tools.Risk;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import static dev.agentbus.cli.Events.at;
import static org.assertj.core.api.Assertions.assertThat;

/** {@code agentbus run --plan}: the session is created plan-first, and the person at the terminal decides the plan. */
class RunPlanFirstTest extends OnFakeGateway {
    private static final String SESSION = "/api/v1/sessions/s1";
    private static final String PLAN_ARGS = "{\"steps\":[\"read a.txt\",\"fix the typo\"]}";

    @BeforeEach
    void routes() {
        gateway.json("POST", "/api/v1/sessions", 201, "{\"id\":\"s1\"}")
                .json("POST", SESSION + "/messages", 202, "{\"inputId\":\"in-1\"}")
                .json("POST", SESSION + "/plan/decision", 202, "{\"inputId\":\"in-2\"}")
                .json("POST", SESSION + "/cancel", 202, "");
    }

    /** The turn up to the plan's approval request; after the decision, the given events follow. */
    private void streamPlanThen(SessionEvent... afterDecision) {
        List<SessionEvent> before = List.of(new SessionCreated("fix", PermissionMode.AUTO),
                new PlanFirstChanged(true, "u1"), new UserMessagePosted("fix the typo"), new ModelCallStarted("r1", 1),
                new ModelCallCompleted("r1", "m", null, null, List.of(new ToolCallSpec("c1", "plan_create", PLAN_ARGS)),
                        TokenUsage.ZERO, "tool_calls"),
                new PlanCreated(1, null, List.of("read a.txt", "fix the typo"), "c1", true),
                new ApprovalRequested("c1", "plan_create", PLAN_ARGS, Risk.LOW, "plan-first mode",
                        Instant.parse("2025-01-01T11:00:00Z")));
        List<String> chunks = new ArrayList<>();
        for (SessionEvent e : before) {
            chunks.add(FakeGateway.event(at(chunks.size() + 1, e)));
        }
        List<String> after = new ArrayList<>();
        for (SessionEvent e : afterDecision) {
            after.add(FakeGateway.event(at(before.size() + after.size() + 1, e)));
        }
        gateway.sse(SESSION + "/events", SseScript.untilRequest("POST " + SESSION + "/plan/decision", chunks,
                after.toArray(String[]::new)));
    }

    @Test
    void the_plan_is_shown_and_y_approves_it_and_the_turn_runs_to_its_end() {
        streamPlanThen(new ApprovalDecided("c1", ApprovalDecision.APPROVED, null, "u1"),
                new ToolCallCompleted("c1", true, "The plan is approved.", null, null, false, 0, false),
                new ModelCallStarted("r2", 2),
                new ModelCallCompleted("r2", "m", "Fixed.", null, List.of(), TokenUsage.ZERO, "stop"),
                new TurnEnded(TurnOutcome.COMPLETED, "Fixed.", null));
        cli.input("y");

        int code = cli.run("run", "--plan", "fix the typo");

        assertThat(code).isZero();
        assertThat(gateway.requests("POST", "/api/v1/sessions").getFirst().body()).contains("\"planFirst\":true");
        assertThat(cli.out()).contains("plan #1 (waits for your approval)", "  1. read a.txt", "  2. fix the typo",
                "⏸ the plan waits for approval", "Approve this plan?", "Fixed.");
        assertThat(gateway.requests("POST", SESSION + "/plan/decision")).singleElement()
                .satisfies(r -> assertThat(r.body()).isEqualTo("{\"decision\":\"approve\"}"));
    }

    @Test
    void anything_else_rejects_the_plan_with_that_text_as_the_note() {
        streamPlanThen(new ApprovalDecided("c1", ApprovalDecision.DENIED, "also run the tests", "u1"),
                new ToolCallCompleted("c1", false, null, "The plan was rejected.", null, false, 0, false),
                new ModelCallStarted("r2", 2),
                new ModelCallCompleted("r2", "m", "I will not do it then.", null, List.of(), TokenUsage.ZERO, "stop"),
                new TurnEnded(TurnOutcome.COMPLETED, "I will not do it then.", null));
        cli.input("also run the tests");

        assertThat(cli.run("run", "--plan", "fix the typo")).isZero();
        assertThat(gateway.requests("POST", SESSION + "/plan/decision")).singleElement()
                .satisfies(r -> assertThat(r.body()).isEqualTo("{\"decision\":\"reject\",\"note\":\"also run the tests\"}"));
    }

    @Test
    void a_plan_decided_elsewhere_first_is_a_warning_and_the_turn_goes_on_as_decided() {
        gateway.json("POST", SESSION + "/plan/decision", 409,
                "{\"error\":\"conflict\",\"message\":\"no plan waits for approval in session s1\"}");
        streamPlanThen(new ApprovalDecided("c1", ApprovalDecision.APPROVED, null, "bob"),
                new ToolCallCompleted("c1", true, "The plan is approved.", null, null, false, 0, false),
                new ModelCallStarted("r2", 2),
                new ModelCallCompleted("r2", "m", "Fixed.", null, List.of(), TokenUsage.ZERO, "stop"),
                new TurnEnded(TurnOutcome.COMPLETED, "Fixed.", null));
        cli.input("y");

        assertThat(cli.run("run", "--plan", "fix the typo")).isZero();
        assertThat(cli.err()).contains("the plan was decided elsewhere before your answer");
        assertThat(cli.out()).contains("✓ approved: the plan by bob", "Fixed.");
    }

    @Test
    void without_an_answer_on_standard_input_the_turn_is_cancelled_and_the_exit_code_is_1() {
        streamPlanThen();

        int code = cli.run("run", "--plan", "fix the typo");

        assertThat(code).isEqualTo(1);
        assertThat(gateway.requests("POST", SESSION + "/cancel")).hasSize(1);
        assertThat(gateway.requests("POST", SESSION + "/plan/decision")).isEmpty();
        assertThat(cli.err()).contains("no answer to the plan on standard input");
    }

    @Test
    void without_plan_the_session_is_not_created_plan_first() {
        gateway.sse(SESSION + "/events", SseScript.thenHold(dev.agentbus.cli.Events.sse(
                dev.agentbus.cli.Events.turn(TurnOutcome.COMPLETED, "done", null), 1, 10)));

        assertThat(cli.run("run", "count the files")).isZero();
        assertThat(gateway.requests("POST", "/api/v1/sessions").getFirst().body()).doesNotContain("planFirst");
    }
}
