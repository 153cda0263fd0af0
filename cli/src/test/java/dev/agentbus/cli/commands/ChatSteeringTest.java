package dev.agentbus.cli.commands;

import dev.agentbus.cli.Events;
import dev.agentbus.cli.FakeGateway;
import dev.agentbus.cli.OnFakeGateway;
import dev.agentbus.cli.FakeGateway.SseScript;
import dev.agentbus.cli.TestCli;
import dev.agentbus.events.session.ApprovalDecision;
import dev.agentbus.events.session.SessionEvent;
import dev.agentbus.events.session.TokenUsage;
import dev.agentbus.events.session.ToolCallSpec;
import dev.agentbus.events.session.TurnOutcome;
import dev.agentbus.events.tools.Risk;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static dev.agentbus.cli.Events.at;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The REPL's steering commands, driven through piped stdin: a turn that waits for approval gives the prompt back,
 * /approve and /deny decide and follow the rest of the turn, /mode and /status, and Ctrl-C twice during a turn.
 */
class ChatSteeringTest extends OnFakeGateway {
    private static final String SESSIONS = "/api/v1/sessions";
    private static final String S1 = "/api/v1/sessions/s1";
    private static final String EVENTS = S1 + "/events";
    private static final String ARGS = "{\"command\":\"rm -rf build\"}";
    private static final String AWAITING = "{\"sessionId\":\"s1\",\"title\":\"clean up\",\"status\":\"AWAITING_APPROVAL\","
            + "\"lastSeq\":5,\"turns\":1,\"permissionMode\":\"normal\",\"usage\":{\"promptTokens\":100,"
            + "\"completionTokens\":10,\"totalTokens\":110},\"pendingApprovals\":[{\"callId\":\"c1\",\"tool\":\"shell\","
            + "\"arguments\":\"" + ARGS.replace("\"", "\\\"") + "\",\"risk\":\"high\",\"reason\":\"normal mode: shell "
            + "runs commands\"}],\"queuedWhispers\":[{\"whisperId\":\"w1\",\"text\":\"careful\",\"sentBy\":\"u1\"}]}";

    @BeforeEach
    void routes() {
        gateway.json("POST", SESSIONS, 201, "{\"id\":\"s1\"}")
                .json("POST", S1 + "/messages", 202, "{\"inputId\":\"in-1\"}")
                .json("POST", S1 + "/approvals/c1", 202, "{\"inputId\":\"in-2\"}")
                .json("POST", S1 + "/cancel", 202, "{\"inputId\":\"in-c\"}")
                .json("PUT", S1 + "/mode", 202, "{\"inputId\":\"in-m\"}");
    }

    /** Seq 1..5: the message, a model call that asks for rm -rf build, and its approval request. */
    private static String[] untilTheApproval() {
        List<SessionEvent> events = List.of(
                new SessionEvent.SessionCreated("clean up"),
                new SessionEvent.UserMessagePosted("delete the build folder"),
                new SessionEvent.ModelCallStarted("r1", 1),
                new SessionEvent.ModelCallCompleted("r1", "m", null, null,
                        List.of(new ToolCallSpec("c1", "shell", ARGS)), new TokenUsage(100, 10, 110), "tool_calls"),
                new SessionEvent.ApprovalRequested("c1", "shell", ARGS, Risk.HIGH, "normal mode: shell runs commands",
                        Instant.parse("2025-01-01T11:00:00Z")));
        return chunks(1, events);
    }

    /** Seq 6..: the decision, then (approved) the call and the answer, and the end of the turn. */
    private static String[] afterTheDecision(ApprovalDecision decision, String note, String answer) {
        List<SessionEvent> events = new ArrayList<>();
        events.add(new SessionEvent.ApprovalDecided("c1", decision, note, "u1"));
        if (decision.allows()) {
            events.add(new SessionEvent.ToolCallRequested("c1", "shell", ARGS));
            events.add(new SessionEvent.ToolCallCompleted("c1", true, "", null, null, false, 5, false));
        }
        events.add(new SessionEvent.ModelCallStarted("r2", 2));
        events.add(new SessionEvent.ModelCallCompleted("r2", "m", answer, null, List.of(), new TokenUsage(200, 5, 205),
                "stop"));
        events.add(new SessionEvent.TurnEnded(TurnOutcome.COMPLETED, answer, null));
        return chunks(6, events);
    }

    private static String[] chunks(long firstSeq, List<SessionEvent> events) {
        List<String> chunks = new ArrayList<>();
        for (int i = 0; i < events.size(); i++) {
            chunks.add(FakeGateway.event(at(firstSeq + i, events.get(i))));
        }
        return chunks.toArray(String[]::new);
    }

    @Test
    void a_turn_waiting_for_approval_gives_the_prompt_back_and_approve_follows_the_rest_of_the_turn() {
        gateway.json("GET", S1, 200, AWAITING)
                .sse(EVENTS, SseScript.thenHold(untilTheApproval()),
                        SseScript.thenHold(afterTheDecision(ApprovalDecision.APPROVED, null, "Deleted.")));
        cli.input("delete the build folder", "/status", "/approve");

        assertThat(cli.run("chat")).isZero();

        String out = cli.out();
        assertThat(out).contains("⏸ approval needed: shell " + ARGS,
                "— /approve, /approve always or /deny [NOTE]  (call c1; normal mode: shell runs commands)",
                "status   AWAITING_APPROVAL", "mode     normal", "turns    1 · tokens 110",
                "approval shell " + ARGS, "call c1 · high risk — /approve or /deny",
                "whispers 1 queued for the next model call", "✓ approved: shell by u1", "Deleted.");
        assertThat(out.indexOf("⏸ approval needed")).isLessThan(out.indexOf("you> /status"));
        assertThat(out.indexOf("you> /approve")).isLessThan(out.indexOf("✓ approved"));
        assertThat(gateway.requests("POST", S1 + "/approvals/c1")).extracting(FakeGateway.Request::body)
                .containsExactly("{\"decision\":\"approve\"}");
        // The rest of the turn is streamed from where it paused: nothing shown twice, nothing missed.
        assertThat(gateway.requests("GET", EVENTS)).hasSize(2);
        assertThat(gateway.requests("GET", EVENTS).get(1).query()).contains("after=5");
        assertThat(cli.err()).isEmpty();
    }

    @Test
    void deny_takes_a_call_id_and_a_note_and_approve_always_names_the_decision() {
        gateway.json("GET", S1, 200, AWAITING)
                .sse(EVENTS, SseScript.thenHold(untilTheApproval()),
                        SseScript.thenHold(afterTheDecision(ApprovalDecision.DENIED, "use the list tool",
                                "All right, I will not delete it.")));
        cli.input("delete the build folder", "/deny c1 use the list tool");

        assertThat(cli.run("chat")).isZero();

        assertThat(gateway.requests("POST", S1 + "/approvals/c1")).extracting(FakeGateway.Request::body)
                .containsExactly("{\"decision\":\"deny\",\"note\":\"use the list tool\"}");
        assertThat(cli.out()).contains("✗ denied: shell by u1 : use the list tool", "All right, I will not delete it.");
    }

    @Test
    void approve_always_and_a_note_without_a_call_id_go_to_the_oldest_waiting_call() {
        gateway.json("GET", S1, 200, AWAITING)
                .sse(EVENTS, SseScript.thenHold(untilTheApproval()),
                        SseScript.thenHold(afterTheDecision(ApprovalDecision.ALWAYS, null, "Deleted.")));
        cli.input("delete the build folder", "/approve ALWAYS");

        assertThat(cli.run("chat")).isZero();

        assertThat(gateway.requests("POST", S1 + "/approvals/c1")).extracting(FakeGateway.Request::body)
                .containsExactly("{\"decision\":\"always\"}");
        assertThat(cli.out()).contains("✓ approved: shell (always, for this session)");
    }

    @Test
    void decisions_that_cannot_be_made_say_why_and_the_repl_goes_on() {
        gateway.jsonSequence("GET", S1, 200, AWAITING,
                        "{\"sessionId\":\"s1\",\"status\":\"IDLE\",\"lastSeq\":9,\"pendingApprovals\":[]}")
                .sse(EVENTS, SseScript.thenHold(untilTheApproval()));
        cli.input("/approve", "/deny", "delete the build folder", "/approve c9", "/approve c1 c2", "/approve",
                "/session");

        assertThat(cli.run("chat")).isZero();

        assertThat(cli.err()).contains("no session yet; type a message to start one",
                "no call c9 waits for approval; waiting: c1 (shell)", "usage: /approve [always] [CALL_ID]",
                "nothing waits for approval in session s1");
        assertThat(gateway.requests("POST", S1 + "/approvals/c1")).isEmpty();
        assertThat(cli.out()).contains("you> /session", "s1");
    }

    @Test
    void mode_before_the_first_message_goes_with_the_new_session_and_after_it_to_the_session() {
        gateway.json("GET", S1, 200, "{\"sessionId\":\"s1\",\"status\":\"IDLE\",\"lastSeq\":10,"
                        + "\"permissionMode\":\"normal\",\"alwaysAllowed\":[\"ls\"]}")
                .sse(EVENTS, SseScript.thenHold(Events.sse(Events.turn(TurnOutcome.COMPLETED, "Two files.", null),
                        1, 10)));
        cli.input("/mode", "/mode MANUAL", "/mode sideways", "How many files?", "/mode normal", "/mode");

        assertThat(cli.run("chat")).isZero();

        assertThat(gateway.requests("POST", SESSIONS)).extracting(FakeGateway.Request::body)
                .containsExactly("{\"title\":\"How many files?\",\"mode\":\"manual\"}");
        assertThat(gateway.requests("PUT", S1 + "/mode")).extracting(FakeGateway.Request::body)
                .containsExactly("{\"mode\":\"normal\"}");
        assertThat(cli.out()).contains("permission mode: the gateway's default (for the session your next message "
                        + "creates)", "permission mode: manual, for the session your next message creates",
                "permission mode: normal, for this session and the new ones this chat starts",
                "permission mode: normal · always allowed: ls");
        assertThat(cli.err()).contains("usage: /mode [auto|normal|manual] (sideways is not a mode)");
    }

    @Test
    void help_lists_the_steering_commands_from_the_table() {
        cli.input("/help", "/status");

        assertThat(cli.run("chat")).isZero();

        assertThat(cli.out()).contains("/mode [auto|normal|manual]", "/approve [always] [CALL_ID]",
                "/deny [CALL_ID] [NOTE]", "/whisper TEXT", "/status", "/quit",
                "no session yet; type a message to start one", "mode     the gateway's default");
    }

    @Test
    void ctrl_c_twice_during_a_turn_leaves_chat() throws Exception {
        gateway.sse(EVENTS, SseScript.thenHold(Events.sse(Events.turn(TurnOutcome.COMPLETED, "never", null), 1, 5)));
        cli.input("How many files?", "never sent");

        CompletableFuture<Integer> chat = cli.runAsync("chat");
        TestCli.await(() -> cli.out().contains("→ shell"), "the tool call to be shown");
        cli.interrupts.fire(); // cancels the turn; the fake never reports its end
        TestCli.await(() -> cli.err().contains("asked the gateway to cancel"), "the cancel");
        cli.interrupts.fire(); // the second press in a row: leave

        assertThat(chat.get(10, TimeUnit.SECONDS)).isZero();
        assertThat(gateway.requests("POST", S1 + "/cancel")).hasSize(1);
        assertThat(cli.out()).doesNotContain("you> never sent");
        assertThat(gateway.requests("POST", S1 + "/messages")).hasSize(1);
    }
}
