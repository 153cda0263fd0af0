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

/**
 * Chat in plan-first mode and its planning commands, through piped stdin: {@code chat --plan} and {@code /new --plan}
 * create plan-first sessions, a proposed plan gives the prompt back, {@code /plan} shows it, {@code /plan approve}
 * and {@code /plan reject NOTE} decide it and follow the rest of the turn, {@code /todo} lists the todos.
 */
class ChatPlanningTest extends OnFakeGateway {
    private static final String SESSIONS = "/api/v1/sessions";
    private static final String S1 = "/api/v1/sessions/s1";
    private static final String PLAN_ARGS = "{\"steps\":[\"read a.txt\",\"fix the typo\"]}";
    private static final String PLANNING = "{\"planFirst\":true,\"todos\":[{\"id\":1,\"text\":\"read a.txt\","
            + "\"status\":\"done\"},{\"id\":2,\"text\":\"fix the typo\",\"status\":\"pending\"}],"
            + "\"plan\":{\"number\":1,\"status\":\"proposed\",\"currentStep\":0,\"callId\":\"c1\","
            + "\"steps\":[{\"text\":\"read a.txt\",\"status\":\"pending\"},{\"text\":\"fix the typo\","
            + "\"status\":\"pending\"}]},\"taskState\":{\"task\":\"typos\",\"total\":3,\"done\":[\"a\"],"
            + "\"failed\":[]}}";
    /** The session while its plan waits: the plan_create call is its pending approval. */
    private static final String AWAITING_PLAN = "{\"sessionId\":\"s1\",\"status\":\"AWAITING_APPROVAL\",\"lastSeq\":7,"
            + "\"planFirst\":true,\"plan\":{\"number\":1,\"status\":\"proposed\",\"currentStep\":0,\"callId\":\"c1\","
            + "\"steps\":[{\"text\":\"read a.txt\",\"status\":\"pending\"}]},\"pendingApprovals\":[{\"callId\":\"c1\","
            + "\"tool\":\"plan_create\",\"arguments\":\"{}\",\"risk\":\"low\",\"reason\":\"plan-first mode\"}]}";

    @BeforeEach
    void routes() {
        gateway.json("POST", SESSIONS, 201, "{\"id\":\"s1\"}")
                .json("POST", S1 + "/messages", 202, "{\"inputId\":\"in-1\"}")
                .json("POST", S1 + "/plan/decision", 202, "{\"inputId\":\"in-2\"}");
    }

    /** Seq 1..7: a plan-first session's first turn, up to its plan waiting for approval. */
    private static String[] untilThePlan() {
        return chunks(1, List.of(new SessionCreated("fix", PermissionMode.AUTO), new PlanFirstChanged(true, "u1"),
                new UserMessagePosted("fix the typo"), new ModelCallStarted("r1", 1),
                new ModelCallCompleted("r1", "m", null, null, List.of(new ToolCallSpec("c1", "plan_create", PLAN_ARGS)),
                        TokenUsage.ZERO, "tool_calls"),
                new PlanCreated(1, null, List.of("read a.txt", "fix the typo"), "c1", true),
                new ApprovalRequested("c1", "plan_create", PLAN_ARGS, Risk.LOW, "plan-first mode",
                        Instant.parse("2025-01-01T11:00:00Z"))));
    }

    /** Seq 8..: the decision, the plan_create call's answer, and the end of the turn. */
    private static String[] afterTheDecision(ApprovalDecision decision, String note, String answer) {
        return chunks(8, List.of(new ApprovalDecided("c1", decision, note, "u1"),
                new ToolCallCompleted("c1", decision.allows(), decision.allows() ? "Plan #1 is approved." : null,
                        decision.allows() ? null : "rejected: " + note, null, false, 0, false),
                new ModelCallStarted("r2", 2),
                new ModelCallCompleted("r2", "m", answer, null, List.of(), TokenUsage.ZERO, "stop"),
                new TurnEnded(TurnOutcome.COMPLETED, answer, null)));
    }

    private static String[] chunks(long firstSeq, List<SessionEvent> events) {
        List<String> chunks = new ArrayList<>();
        for (int i = 0; i < events.size(); i++) {
            chunks.add(FakeGateway.event(at(firstSeq + i, events.get(i))));
        }
        return chunks.toArray(String[]::new);
    }

    @Test
    void chat_plan_creates_a_plan_first_session_whose_plan_gives_the_prompt_back_and_plan_approve_follows_the_turn() {
        gateway.json("GET", S1, 200, AWAITING_PLAN).json("GET", S1 + "/planning", 200, PLANNING)
                .sse(S1 + "/events", SseScript.thenHold(untilThePlan()),
                        SseScript.thenHold(afterTheDecision(ApprovalDecision.APPROVED, null, "Fixed the typo.")));
        cli.input("fix the typo", "/plan", "/plan approve");

        assertThat(cli.run("chat", "--plan")).isZero();

        String out = cli.out();
        assertThat(gateway.requests("POST", SESSIONS)).extracting(FakeGateway.Request::body)
                .containsExactly("{\"title\":\"fix the typo\",\"planFirst\":true}");
        assertThat(out).contains("session s1 · plan-first: the agent proposes a plan",
                "⏸ the plan waits for approval — /plan approve, or /plan reject [NOTE]",
                "plan-first: no tool but the planning tools runs without a plan you approved",
                "Plan #1 · proposed", "1. read a.txt", "2. fix the typo",
                "waits for your approval — /plan approve, or /plan reject [NOTE]",
                "Todos", "☑ #1 read a.txt · done", "☐ #2 fix the typo · pending",
                "Task state typos · 1 of 3 done · 0 failed", "Fixed the typo.");
        // The prompt came back at the plan: /plan ran before the decision, which then followed the rest of the turn.
        assertThat(out.indexOf("⏸ the plan waits")).isLessThan(out.indexOf("you> /plan"));
        assertThat(out.indexOf("you> /plan approve")).isLessThan(out.indexOf("Fixed the typo."));
        assertThat(gateway.requests("POST", S1 + "/plan/decision")).extracting(FakeGateway.Request::body)
                .containsExactly("{\"decision\":\"approve\"}");
        assertThat(gateway.requests("GET", S1 + "/events")).hasSize(2);
        assertThat(gateway.requests("GET", S1 + "/events").get(1).query()).contains("after=7");
        assertThat(cli.err()).isEmpty();
    }

    @Test
    void plan_reject_sends_the_note_the_agent_reads() {
        gateway.json("GET", S1, 200, AWAITING_PLAN)
                .sse(S1 + "/events", SseScript.thenHold(untilThePlan()),
                        SseScript.thenHold(afterTheDecision(ApprovalDecision.DENIED, "test first", "A new plan, then.")));
        cli.input("fix the typo", "/plan reject test first");

        assertThat(cli.run("chat", "--plan")).isZero();

        assertThat(gateway.requests("POST", S1 + "/plan/decision")).extracting(FakeGateway.Request::body)
                .containsExactly("{\"decision\":\"reject\",\"note\":\"test first\"}");
        assertThat(cli.out()).contains("A new plan, then.");
    }

    @Test
    void plan_decisions_that_cannot_be_made_say_why_and_chat_goes_on() {
        gateway.json("GET", S1, 200, "{\"sessionId\":\"s1\",\"status\":\"IDLE\",\"lastSeq\":9,\"pendingApprovals\":[],"
                        + "\"plan\":{\"number\":1,\"status\":\"active\",\"currentStep\":1,\"callId\":\"c1\",\"steps\":[]}}")
                .sse(S1 + "/events", SseScript.thenHold(chunks(1, List.of(new SessionCreated("t"),
                        new UserMessagePosted("hi"), new TurnEnded(TurnOutcome.COMPLETED, "Hi.", null)))));
        cli.input("/plan", "/plan approve", "hi", "/plan approve", "/plan approve now", "/plan sideways");

        assertThat(cli.run("chat")).isZero();

        assertThat(cli.err()).contains("no session yet; type a message to start one",
                "no plan waits for your approval in session s1 (plan #1 is active)",
                "usage: /plan approve (a note goes with /plan reject NOTE)",
                "usage: /plan, /plan approve or /plan reject [NOTE]");
        assertThat(gateway.requests("POST", S1 + "/plan/decision")).isEmpty();
    }

    @Test
    void todo_lists_the_todos_and_says_when_there_are_none() {
        gateway.jsonSequence("GET", S1 + "/planning", 200, "{\"planFirst\":false,\"todos\":[]}", PLANNING)
                .json("GET", S1, 200, "{\"sessionId\":\"s1\",\"status\":\"IDLE\",\"lastSeq\":3}")
                .sse(S1 + "/events", SseScript.thenHold(chunks(1, List.of(new SessionCreated("t"),
                        new UserMessagePosted("hi"), new TurnEnded(TurnOutcome.COMPLETED, "Hi.", null)))));
        cli.input("hi", "/todo", "/todo", "/plan");

        assertThat(cli.run("chat")).isZero();

        assertThat(cli.out()).contains("no todos yet", "☑ #1 read a.txt · done", "☐ #2 fix the typo · pending");
        assertThat(cli.err()).isEmpty();
    }

    @Test
    void new_with_plan_makes_only_the_next_session_plan_first() {
        gateway.sse(S1 + "/events",
                SseScript.thenHold(chunks(1, List.of(new SessionCreated("a"), new UserMessagePosted("one"),
                        new TurnEnded(TurnOutcome.COMPLETED, "One.", null)))),
                SseScript.thenHold(chunks(1, List.of(new SessionCreated("b"), new UserMessagePosted("two"),
                        new TurnEnded(TurnOutcome.COMPLETED, "Two.", null)))));
        cli.input("/new --plan Careful", "one", "/new", "two");

        assertThat(cli.run("chat")).isZero();

        assertThat(gateway.requests("POST", SESSIONS)).extracting(FakeGateway.Request::body)
                .containsExactly("{\"title\":\"Careful\",\"planFirst\":true}", "{\"title\":\"two\"}");
        assertThat(cli.out()).contains("new session: it starts with your next message (title: Careful), plan-first");
    }
}
