package dev.agentbus.systemtests;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentbus.events.planning.TodoStatus;
import dev.agentbus.events.session.ApprovalDecision;
import dev.agentbus.events.session.EventEnvelope;
import dev.agentbus.events.session.SessionEvent.ApprovalDecided;
import dev.agentbus.events.session.SessionEvent.ApprovalRequested;
import dev.agentbus.events.session.SessionEvent.PlanCreated;
import dev.agentbus.events.session.SessionEvent.PlanFirstChanged;
import dev.agentbus.events.session.SessionEvent.PlanStepCompleted;
import dev.agentbus.events.session.SessionEvent.TodoUpdated;
import dev.agentbus.events.session.SessionEvent.ToolCallCompleted;
import dev.agentbus.events.session.SessionEvent.ToolCallRequested;
import dev.agentbus.events.session.SessionEvent.TurnEnded;
import dev.agentbus.events.session.TurnOutcome;
import dev.agentbus.testkit.Poll;
import dev.agentbus.testkit.model.ScriptedToolCall;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static dev.agentbus.systemtests.EndToEndIT.events;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Plan-first mode end to end on the standalone stack (real broker, every service) with the scripted model server:
 * a session created with {@code planFirst} holds every tool but the planning ones until the person approves the
 * model's plan through {@code POST /plan/decision}; then the plan is carried out, its steps completed with evidence
 * and the todo done, all in the session's state. A rejected plan tells the model the person's note. The CLI's
 * {@code run --plan} asks about the plan, and {@code chat --session} shows it with {@code /plan} and {@code /todo}.
 */
class PlanFirstIT extends OnStandaloneStack {
    static final Duration WAIT = Duration.ofSeconds(60);
    private static final String PLAN = "{\"title\":\"notes\",\"steps\":[\"write notes.txt\",\"read it back\"]}";

    @Test
    void an_approved_plan_is_carried_out_step_by_step_with_its_todo_completed() throws Exception {
        model.replyToolCalls(List.of(new ScriptedToolCall("t1", "todo_add", "{\"text\":\"write the notes\"}"),
                        new ScriptedToolCall("p1", "plan_create", PLAN),
                        new ScriptedToolCall("w0", "write", "{\"path\":\"early.txt\",\"content\":\"too soon\"}")))
                .replyToolCall("write", "{\"path\":\"notes.txt\",\"content\":\"hello\"}")
                .replyToolCalls(List.of(new ScriptedToolCall("s1", "plan_complete_step",
                                "{\"evidence\":\"wrote notes.txt\"}"),
                        new ScriptedToolCall("r1", "read", "{\"path\":\"notes.txt\"}")))
                .replyToolCalls(List.of(new ScriptedToolCall("s2", "plan_complete_step",
                                "{\"evidence\":\"read back: hello\"}"),
                        new ScriptedToolCall("t2", "todo_complete", "{\"id\":1}")))
                .replyText("Notes written and checked.");
        GatewayClient gw = stack.gateway;
        int requestsBefore = model.requestCount();
        String id = createPlanFirst(gw, "notes");
        gw.postMessage(id, "write notes.txt saying hello");

        awaitPlanApproval(gw, id);
        JsonNode waiting = gw.get("/api/v1/sessions/" + id).json();
        assertThat(waiting.get("status").asText()).isEqualTo("AWAITING_APPROVAL");
        assertThat(waiting.get("planFirst").asBoolean()).isTrue();
        assertThat(waiting.get("plan").get("status").asText()).isEqualTo("proposed");
        assertThat(waiting.get("plan").get("callId").asText()).isEqualTo("p1");
        assertThat(waiting.get("pendingApprovals").get(0).get("tool").asText()).isEqualTo("plan_create");
        assertThat(waiting.get("todos").get(0).get("status").asText()).isEqualTo("pending");
        assertThat(model.requestCount() - requestsBefore).as("the model waits for the decision").isEqualTo(1);
        assertThat(model.lastRequest().get("messages").get(0).get("content").asText()).contains("plan-first mode");
        assertThat(stack.workspace(id).resolve("early.txt")).as("no tool ran before the approval").doesNotExist();

        GatewayClient.Response decided = gw.post("/api/v1/sessions/" + id + "/plan/decision",
                "{\"decision\":\"approve\"}");
        assertThat(decided.status()).isEqualTo(202);
        List<EventEnvelope> log = gw.awaitLog(id, e -> e.event() instanceof TurnEnded, WAIT);

        assertThat(events(log, PlanFirstChanged.class)).singleElement().satisfies(f -> assertThat(f.on()).isTrue());
        assertThat(events(log, ApprovalDecided.class)).singleElement().satisfies(d -> {
            assertThat(d.callId()).isEqualTo("p1");
            assertThat(d.decision()).isEqualTo(ApprovalDecision.APPROVED);
            assertThat(d.decidedBy()).isEqualTo("local");
        });
        assertThat(events(log, ToolCallCompleted.class)).filteredOn(c -> c.callId().equals("w0")).singleElement()
                .satisfies(c -> assertThat(c.error()).startsWith("not run: plan-first mode"));
        assertThat(events(log, ToolCallRequested.class)).extracting(ToolCallRequested::name)
                .as("only the approved plan's calls reached the sandbox").containsExactly("write", "read");
        assertThat(events(log, PlanStepCompleted.class)).extracting(PlanStepCompleted::evidence)
                .containsExactly("wrote notes.txt", "read back: hello");
        assertThat(events(log, TodoUpdated.class)).singleElement()
                .satisfies(u -> assertThat(u.status()).isEqualTo(TodoStatus.DONE));
        assertThat(events(log, TurnEnded.class).getLast().outcome()).isEqualTo(TurnOutcome.COMPLETED);
        assertThat(stack.workspace(id).resolve("notes.txt")).hasContent("hello");

        JsonNode done = gw.get("/api/v1/sessions/" + id + "/planning").json();
        assertThat(done.get("plan").get("status").asText()).isEqualTo("completed");
        assertThat(done.get("plan").get("steps").get(1).get("evidence").asText()).isEqualTo("read back: hello");
        assertThat(done.get("todos").get(0).get("status").asText()).isEqualTo("done");
        assertThat(gw.post("/api/v1/sessions/" + id + "/plan/decision", "{\"decision\":\"approve\"}").status())
                .as("nothing waits any more").isEqualTo(409);
    }

    @Test
    void a_rejected_plan_tells_the_model_the_persons_note_and_nothing_runs() throws Exception {
        model.replyToolCall("plan_create", PLAN).replyText("Understood, I will not write anything.");
        GatewayClient gw = stack.gateway;
        String id = createPlanFirst(gw, "reject");
        gw.postMessage(id, "write notes.txt");
        awaitPlanApproval(gw, id);

        assertThat(gw.post("/api/v1/sessions/" + id + "/plan/decision",
                "{\"decision\":\"reject\",\"note\":\"no files today\"}").status()).isEqualTo(202);
        List<EventEnvelope> log = gw.awaitLog(id, e -> e.event() instanceof TurnEnded, WAIT);

        assertThat(events(log, ToolCallRequested.class)).isEmpty();
        assertThat(events(log, PlanCreated.class)).singleElement().satisfies(p -> assertThat(p.awaitingApproval()).isTrue());
        assertThat(model.lastRequest().get("messages").toString()).contains("no files today");
        JsonNode plan = gw.get("/api/v1/sessions/" + id).json().get("plan");
        assertThat(plan.get("status").asText()).isEqualTo("rejected");
        assertThat(plan.get("note").asText()).isEqualTo("no files today");
    }

    @Test
    void run_plan_asks_about_the_plan_and_chat_on_that_session_shows_it_with_plan_and_todo() throws Exception {
        model.replyToolCalls(List.of(new ScriptedToolCall("t1", "todo_add", "{\"text\":\"say hi\"}"),
                        new ScriptedToolCall("p1", "plan_create", "{\"title\":\"greet\",\"steps\":[\"say hi\"]}")))
                .replyToolCall("plan_complete_step", "{\"evidence\":\"said hi\"}")
                .replyText("Hi, said and done.");
        Path scratch = dataDir.resolve("cli");

        CliProcess.Result run = CliProcess.runWithInput(stack.stack.gatewayUrl(), StandaloneStack.TOKEN, scratch, "y\n",
                "run", "--plan", "--title", "greet via run", "greet the user");

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out()).contains("Approve this plan?", "Hi, said and done.");
        String id = null;
        for (JsonNode s : stack.gateway.get("/api/v1/sessions").json()) {
            if (s.path("title").asText().equals("greet via run")) {
                id = s.get("id").asText();
            }
        }
        assertThat(id).as("the session run created").isNotNull();

        CliProcess.Result chat = CliProcess.runWithInput(stack.stack.gatewayUrl(), StandaloneStack.TOKEN, scratch,
                "/plan\n/todo\n/plan approve\n", "chat", "--session", id);

        assertThat(chat.exitCode()).as(chat.err()).isZero();
        assertThat(chat.out()).contains("plan-first: no tool but the planning tools runs without a plan you approved",
                "Plan #1 greet · completed", "✓ 1. say hi — said hi", "☐ #1 say hi · pending");
        assertThat(chat.err()).contains("no plan waits for your approval in session " + id
                + " (plan #1 is completed)");
    }

    private static String createPlanFirst(GatewayClient gw, String title) {
        GatewayClient.Response r = gw.post("/api/v1/sessions", "{\"title\":\"" + title + "\",\"planFirst\":true}");
        assertThat(r.status()).isEqualTo(201);
        return r.json().get("id").asText();
    }

    /** Waits for the plan's approval request, and until the gateway's view shows it. */
    private static void awaitPlanApproval(GatewayClient gw, String id) throws Exception {
        gw.awaitLog(id, e -> e.event() instanceof ApprovalRequested, WAIT);
        Poll.until("the view to show the plan's approval", WAIT,
                () -> gw.get("/api/v1/sessions/" + id).body().contains("AWAITING_APPROVAL"));
    }
}
