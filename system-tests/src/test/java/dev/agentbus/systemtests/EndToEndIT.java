package dev.agentbus.systemtests;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentbus.events.session.EventEnvelope;
import dev.agentbus.events.session.SessionEvent;
import dev.agentbus.events.session.SessionEvent.ModelCallCompleted;
import dev.agentbus.events.session.SessionEvent.ToolCallCompleted;
import dev.agentbus.events.session.SessionEvent.TurnEnded;
import dev.agentbus.events.session.TurnOutcome;
import dev.agentbus.testkit.model.ScriptedReply;
import dev.agentbus.testkit.model.ScriptedUsage;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.LongStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The whole loop through the real broker, all five services in one JVM (the standalone shape), with the scripted
 * model server: the model writes a file, runs a shell command that reads it, then answers.
 */
class EndToEndIT extends OnStandaloneStack {
    @Test
    void the_model_writes_a_file_runs_a_command_that_reads_it_and_answers() throws Exception {
        model.reply(ScriptedReply.toolCalls(List.of(dev.agentbus.testkit.model.ScriptedToolCall.of("write",
                        "{\"path\":\"hello.txt\",\"content\":\"hi\\n\"}"))).withUsage(ScriptedUsage.of(100, 10)))
                .reply(ScriptedReply.toolCalls(List.of(dev.agentbus.testkit.model.ScriptedToolCall.of("shell",
                        "{\"command\":\"cat hello.txt\"}"))).withUsage(ScriptedUsage.of(150, 12)))
                .reply(ScriptedReply.reasoningAndText("The file holds hi.", "hello.txt contains: hi")
                        .withUsage(ScriptedUsage.of(200, 8)));
        GatewayClient gw = stack.gateway;
        String id = gw.createSession("e2e");
        gw.postMessage(id, "create hello.txt containing hi, then show it");

        List<EventEnvelope> log = gw.awaitLog(id, e -> e.event() instanceof TurnEnded, Duration.ofSeconds(60));

        // the file is in the session's workspace
        assertThat(stack.workspace(id).resolve("hello.txt")).hasContent("hi");
        // seq 1..N, no gaps, no duplicates
        assertThat(log).extracting(EventEnvelope::seq)
                .containsExactlyElementsOf(LongStream.rangeClosed(1, log.size()).boxed().toList());
        // the shell command saw the file the write tool wrote
        List<ToolCallCompleted> results = events(log, ToolCallCompleted.class);
        assertThat(results).hasSize(2).allMatch(ToolCallCompleted::ok);
        assertThat(results.get(1).output()).contains("hi").contains("exit code: 0");
        // the answer, with reasoning kept apart
        TurnEnded end = events(log, TurnEnded.class).getFirst();
        assertThat(end.outcome()).isEqualTo(TurnOutcome.COMPLETED);
        assertThat(end.answer()).isEqualTo("hello.txt contains: hi");
        ModelCallCompleted last = events(log, ModelCallCompleted.class).getLast();
        assertThat(last.reasoning()).isEqualTo("The file holds hi.");
        assertThat(last.content()).doesNotContain("holds");
        // token usage of every model call, and the total in the folded state
        assertThat(events(log, ModelCallCompleted.class)).extracting(m -> m.usage().promptTokens())
                .containsExactly(100L, 150L, 200L);
        JsonNode state = gw.get("/api/v1/sessions/" + id).json();
        assertThat(state.get("status").asText()).isEqualTo("IDLE");
        assertThat(state.get("usage").get("promptTokens").asLong()).isEqualTo(450);
        assertThat(state.get("usage").get("completionTokens").asLong()).isEqualTo(30);
        assertThat(state.get("toolCalls")).hasSize(2);
        // three model calls, and the second one carried the write tool's result
        assertThat(model.requestCount()).isEqualTo(3);
        JsonNode second = model.requests().get(1).get("messages");
        assertThat(second.toString()).contains("\"role\":\"tool\"").doesNotContain("holds hi");
        // every record carries a traceparent, and the session list shows it
        assertThat(gw.get("/api/v1/sessions").json().findValuesAsText("id")).contains(id);
    }

    @Test
    void the_event_stream_resumes_after_last_event_id_without_gaps_or_repeats() throws Exception {
        // The second answer streams slowly, so the live reader below is attached while its tokens flow.
        model.replyText("first answer")
                .reply(ScriptedReply.text("second answer").withChunkDelay(Duration.ofMillis(200)));
        GatewayClient gw = stack.gateway;
        String id = gw.createSession("sse");
        gw.postMessage(id, "say something");
        List<EventEnvelope> log = gw.awaitLog(id, e -> e.event() instanceof TurnEnded, Duration.ofSeconds(30));

        var all = gw.sse(id, null, s -> "turn.ended.v1".equals(s.event()), Duration.ofSeconds(20));
        assertThat(all).filteredOn(s -> s.id() != null).extracting(GatewayClient.Sse::id)
                .containsExactlyElementsOf(log.stream().map(e -> Long.toString(e.seq())).toList());

        var resumed = gw.sse(id, "2", s -> "turn.ended.v1".equals(s.event()), Duration.ofSeconds(20));
        assertThat(resumed).filteredOn(s -> s.id() != null).extracting(s -> Long.parseLong(s.id()))
                .containsExactlyElementsOf(LongStream.rangeClosed(3, log.size()).boxed().toList());
        assertThat(resumed.getFirst().event()).isEqualTo(events(log, SessionEvent.class).get(2).getClass()
                .getAnnotation(dev.agentbus.events.WireType.class).value());

        // live: a second turn streams its token deltas as their own event name; the reader is started first
        var reading = java.util.concurrent.CompletableFuture.supplyAsync(() -> {
            try {
                return gw.sse(id, Long.toString(log.size()), s -> "turn.ended.v1".equals(s.event()),
                        Duration.ofSeconds(30));
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        gw.postMessage(id, "again");
        var live = reading.get(40, java.util.concurrent.TimeUnit.SECONDS);
        assertThat(live).anyMatch(s -> "delta".equals(s.event()) && s.id() == null && s.data().contains("TOKEN"));
        assertThat(live).filteredOn(s -> s.id() != null).extracting(s -> Long.parseLong(s.id()))
                .allMatch(seq -> seq > log.size());
    }

    @Test
    void a_slow_command_in_one_session_does_not_hold_up_another_session() throws Exception {
        model.replyToolCall("shell", "{\"command\":\"sleep 5; echo slow\"}")
                .replyToolCall("shell", "{\"command\":\"echo fast\"}")
                .replyText("done").replyText("done");
        GatewayClient gw = stack.gateway;
        String slow = gw.createSession("slow");
        gw.postMessage(slow, "run the slow one");
        gw.awaitLog(slow, e -> e.event() instanceof SessionEvent.ToolCallStarted, Duration.ofSeconds(30));
        String fast = gw.createSession("fast");
        gw.postMessage(fast, "run the fast one");

        List<EventEnvelope> fastLog = gw.awaitLog(fast, e -> e.event() instanceof TurnEnded, Duration.ofSeconds(30));
        List<EventEnvelope> slowLog = gw.awaitLog(slow, e -> e.event() instanceof TurnEnded, Duration.ofSeconds(30));
        EventEnvelope fastEnd = fastLog.getLast();
        EventEnvelope slowResult = slowLog.stream().filter(e -> e.event() instanceof ToolCallCompleted)
                .findFirst().orElseThrow();
        assertThat(fastEnd.time()).isBefore(slowResult.time());
        assertThat(((ToolCallCompleted) slowResult.event()).output()).contains("slow");
    }

    @Test
    void secrets_in_tool_output_never_reach_the_log() throws Exception {
        model.replyToolCall("write", "{\"path\":\".env\",\"content\":\"OPENAI_API_KEY=sk-live-abcdefghijklmnopqrstuvwxyz\\n\"}")
                .replyToolCall("shell", "{\"command\":\"cat .env\"}")
                .replyText("done");
        GatewayClient gw = stack.gateway;
        String id = gw.createSession("secrets");
        gw.postMessage(id, "show me the env file");
        gw.awaitLog(id, e -> e.event() instanceof TurnEnded, Duration.ofSeconds(30));
        String log = gw.get("/api/v1/sessions/" + id + "/log").body();
        List<ToolCallCompleted> results = events(gw.log(id), ToolCallCompleted.class);
        assertThat(results.getLast().output()).contains("OPENAI_API_KEY=[REDACTED]");
        // only the model's own tool arguments carry it (the worker needs them as written); no result does
        assertThat(results).allSatisfy(r -> assertThat(String.valueOf(r.output()) + r.diff())
                .doesNotContain("sk-live-abcdefghijklmnopqrstuvwxyz"));
        assertThat(stack.workspace(id).resolve(".env")).content().contains("sk-live-abcdefghijklmnopqrstuvwxyz");
        assertThat(log).contains("[REDACTED]");
    }

    @Test
    void the_cli_runs_a_task_to_completion_streams_it_and_exits_0() throws Exception {
        model.replyToolCall("write", "{\"path\":\"hello.txt\",\"content\":\"hi\\n\"}")
                .replyToolCall("shell", "{\"command\":\"cat hello.txt\"}")
                .replyText("hello.txt contains: hi");
        var result = CliProcess.run(stack.stack.gatewayUrl(), StandaloneStack.TOKEN, dataDir.resolve("cli"),
                "run", "create hello.txt containing hi, then show it");
        assertThat(result.exitCode()).as(result.out() + result.err()).isZero();
        assertThat(result.out()).contains("write").contains("shell").contains("hello.txt contains: hi");

        var sessions = CliProcess.run(stack.stack.gatewayUrl(), StandaloneStack.TOKEN, dataDir.resolve("cli"),
                "sessions");
        assertThat(sessions.exitCode()).isZero();
        String id = stack.gateway.get("/api/v1/sessions").json().get(0).get("id").asText();
        assertThat(sessions.out()).contains(id.substring(0, 8));
        assertThat(stack.workspace(id).resolve("hello.txt")).hasContent("hi");

        var events = CliProcess.run(stack.stack.gatewayUrl(), StandaloneStack.TOKEN, dataDir.resolve("cli"),
                "events", id);
        assertThat(events.exitCode()).isZero();
        assertThat(events.out().lines()).allMatch(l -> l.startsWith("{\"type\":"))
                .anyMatch(l -> l.contains("turn.ended.v1"));
    }

    @Test
    void the_cli_chat_keeps_one_session_across_turns() throws Exception {
        model.replyText("Hello, Ada.").replyText("Your name is Ada.");
        int before = stack.gateway.get("/api/v1/sessions").json().size();
        var result = CliProcess.runWithInput(stack.stack.gatewayUrl(), StandaloneStack.TOKEN, dataDir.resolve("cli"),
                "my name is Ada\nwhat is my name?\n/quit\n", "chat");
        assertThat(result.exitCode()).as(result.out() + result.err()).isZero();
        assertThat(result.out()).contains("Hello, Ada.").contains("Your name is Ada.");
        assertThat(stack.gateway.get("/api/v1/sessions").json().size()).isEqualTo(before + 1);
        // the second turn was asked with the first one in its history
        assertThat(model.lastRequest().get("messages").toString()).contains("my name is Ada").contains("Hello, Ada.");
    }

    static <T extends SessionEvent> List<T> events(List<EventEnvelope> log, Class<T> type) {
        return log.stream().map(EventEnvelope::event).filter(type::isInstance).map(type::cast).toList();
    }

    static boolean exists(Path p) {
        return Files.exists(p);
    }
}
