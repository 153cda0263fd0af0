package dev.agentbus.systemtests;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentbus.events.session.EventEnvelope;
import dev.agentbus.events.session.SessionEvent;
import dev.agentbus.events.session.SessionEvent.SessionCreated;
import dev.agentbus.events.session.SessionEvent.SubAgentFinished;
import dev.agentbus.events.session.SessionEvent.SubAgentStarted;
import dev.agentbus.events.session.SessionEvent.ToolCallCompleted;
import dev.agentbus.events.session.SessionEvent.TurnEnded;
import dev.agentbus.events.session.TurnOutcome;
import dev.agentbus.testkit.Poll;
import dev.agentbus.testkit.model.ScriptedReply;
import dev.agentbus.testkit.model.ScriptedToolCall;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.StreamSupport;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Sub-agents end to end on the standalone stack (real broker, every service) with the scripted model server: the
 * parent's model asks for two tasks in one reply; two child sessions start on the bus, each runs its own turn with
 * the file tools only, and their answers come back as the task calls' results, after which the parent's model is
 * called once more with both. Cancelling a parent cancels its running child, and the parent records that.
 */
class SubAgentsIT extends OnStandaloneStack {
    static final Duration WAIT = Duration.ofSeconds(60);

    @Test
    void a_parent_delegates_two_tasks_in_parallel_and_answers_with_both_results() throws Exception {
        model.reset();
        model.replyToolCalls(List.of(
                        new ScriptedToolCall("task_a", "task",
                                "{\"description\":\"count the apples\",\"prompt\":\"How many apples?\"}"),
                        new ScriptedToolCall("task_b", "task",
                                "{\"description\":\"count the pears\",\"prompt\":\"How many pears?\"}")))
                // The two children ask at the same time: which one gets which answer is theirs to race for.
                .replyText("child answer one")
                .replyText("child answer two")
                .replyText("Both counted: one and two.");
        GatewayClient gw = stack.gateway;
        String parent = gw.createSession("fruit");

        gw.postMessage(parent, "count the fruit, in parallel");
        List<EventEnvelope> log = gw.awaitLog(parent, e -> e.event() instanceof TurnEnded, WAIT);

        List<SubAgentStarted> started = events(log, SubAgentStarted.class);
        assertThat(started).extracting(SubAgentStarted::callId).containsExactly("task_a", "task_b");
        assertThat(started).extracting(SubAgentStarted::description)
                .containsExactly("count the apples", "count the pears");
        assertThat(events(log, SubAgentFinished.class)).extracting(SubAgentFinished::outcome)
                .containsExactly(TurnOutcome.COMPLETED, TurnOutcome.COMPLETED);
        assertThat(events(log, ToolCallCompleted.class)).extracting(ToolCallCompleted::output)
                .containsExactlyInAnyOrder("child answer one", "child answer two");
        assertThat(events(log, TurnEnded.class)).singleElement().satisfies(t -> {
            assertThat(t.outcome()).isEqualTo(TurnOutcome.COMPLETED);
            assertThat(t.answer()).isEqualTo("Both counted: one and two.");
        });
        assertThat(model.requestCount()).as("parent, two children, parent again").isEqualTo(4);
        String lastPrompt = model.lastRequest().get("messages").toString();
        assertThat(lastPrompt).as("the parent's model reads both children's answers")
                .contains("child answer one", "child answer two");

        for (SubAgentStarted s : started) {
            List<EventEnvelope> child = gw.log(s.childSessionId());
            assertThat(child.getFirst().event()).isInstanceOfSatisfying(SessionCreated.class, c -> {
                assertThat(c.subAgentOf().parentSessionId()).isEqualTo(parent);
                assertThat(c.subAgentOf().callId()).isEqualTo(s.callId());
            });
            assertThat(child.getFirst().userId()).as("owned by the parent's user").isEqualTo(log.getFirst().userId());
            assertThat(events(child, TurnEnded.class)).singleElement()
                    .satisfies(t -> assertThat(t.outcome()).isEqualTo(TurnOutcome.COMPLETED));
            assertThat(child).extracting(EventEnvelope::seq).as("no gaps, no repeats")
                    .containsExactlyElementsOf(seqs(child.size()));
            JsonNode details = gw.get("/api/v1/sessions/" + s.childSessionId()).json();
            assertThat(details.get("parent").get("sessionId").asText()).isEqualTo(parent);
            assertThat(details.get("parent").get("callId").asText()).isEqualTo(s.callId());
        }
        List<JsonNode> childRequests = model.requests().subList(1, 3);
        for (JsonNode request : childRequests) {
            assertThat(StreamSupport.stream(request.get("tools").spliterator(), false)
                    .map(t -> t.get("function").get("name").asText()).toList())
                    .as("a child is offered the file tools only")
                    .containsExactly("read", "write", "edit", "ls", "glob", "grep");
        }

        JsonNode state = gw.get("/api/v1/sessions/" + parent).json();
        assertThat(state.get("children")).hasSize(2);
        assertThat(state.get("children").findValuesAsText("status")).containsExactly("COMPLETED", "COMPLETED");
        JsonNode list = gw.get("/api/v1/sessions").json();
        List<String> childrenListed = new ArrayList<>();
        list.forEach(row -> {
            if (parent.equals(row.get("parentSessionId").asText(null))) {
                childrenListed.add(row.get("id").asText());
            }
        });
        assertThat(childrenListed).containsExactlyInAnyOrderElementsOf(
                started.stream().map(SubAgentStarted::childSessionId).toList());
    }

    @Test
    void cancelling_the_parent_cancels_its_running_child_and_the_parent_records_that() throws Exception {
        model.reset();
        model.replyToolCall("task", "{\"description\":\"slow\",\"prompt\":\"Think for a long time.\"}")
                // The child's model call is still streaming when the parent is cancelled.
                .reply(ScriptedReply.text("too late").withDelay(Duration.ofSeconds(30)));
        GatewayClient gw = stack.gateway;
        String parent = gw.createSession("impatient");
        gw.postMessage(parent, "delegate something slow");
        List<EventEnvelope> started = gw.awaitLog(parent, e -> e.event() instanceof SubAgentStarted, WAIT);
        String child = events(started, SubAgentStarted.class).getFirst().childSessionId();
        gw.awaitLog(child, e -> e.event() instanceof SessionEvent.ModelCallStarted, WAIT);
        Poll.until("the child's model call reached the server", WAIT, () -> model.requestCount() == 2);

        GatewayClient.Response cancelled = gw.post("/api/v1/sessions/" + parent + "/cancel", "{}");
        assertThat(cancelled.status()).isEqualTo(202);

        List<EventEnvelope> childLog = gw.awaitLog(child, e -> e.event() instanceof TurnEnded, WAIT);
        assertThat(events(childLog, TurnEnded.class)).singleElement()
                .satisfies(t -> assertThat(t.outcome()).isEqualTo(TurnOutcome.CANCELLED));
        List<EventEnvelope> log = gw.awaitLog(parent, e -> e.event() instanceof SubAgentFinished, WAIT);
        assertThat(events(log, SubAgentFinished.class)).singleElement()
                .satisfies(f -> assertThat(f.outcome()).isEqualTo(TurnOutcome.CANCELLED));
        assertThat(events(log, ToolCallCompleted.class)).singleElement().satisfies(c -> {
            assertThat(c.ok()).isFalse();
            assertThat(c.error()).startsWith("the sub-agent " + child + " did not finish: cancelled");
        });
        assertThat(events(log, TurnEnded.class)).singleElement()
                .satisfies(t -> assertThat(t.outcome()).isEqualTo(TurnOutcome.CANCELLED));
        assertThat(model.requestCount()).as("the parent's model is not called after its cancel").isEqualTo(2);
    }

    static <T extends SessionEvent> List<T> events(List<EventEnvelope> log, Class<T> type) {
        return log.stream().map(EventEnvelope::event).filter(type::isInstance).map(type::cast).toList();
    }

    static List<Long> seqs(int n) {
        List<Long> out = new ArrayList<>();
        for (long i = 1; i <= n; i++) {
            out.add(i);
        }
        return out;
    }
}
