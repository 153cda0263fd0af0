package dev.agentbus.cli.commands;

import dev.agentbus.cli.FakeGateway;
import dev.agentbus.cli.OnFakeGateway;
import dev.agentbus.cli.FakeGateway.SseScript;
import dev.agentbus.events.session.EventEnvelope;
import dev.agentbus.events.session.SessionEvent;
import dev.agentbus.events.session.SessionEvent.ContextCompacted;
import dev.agentbus.events.session.SessionEvent.ContextCompactionFailed;
import dev.agentbus.events.session.SessionEvent.ContextCompactionRequested;
import dev.agentbus.events.session.SessionEvent.InputRejected;
import dev.agentbus.events.session.SessionEvent.SessionCreated;
import dev.agentbus.events.session.SessionEvent.TurnEnded;
import dev.agentbus.events.session.SessionEvent.UserMessagePosted;
import dev.agentbus.events.session.TokenUsage;
import dev.agentbus.events.session.TurnOutcome;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import static dev.agentbus.cli.Events.at;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Chat's {@code /soul} (what the system prompt is made of) and {@code /compact} (the summary asked for, and its
 * outcome read from the log: compacted, failed, refused; a 409 says why), through piped stdin.
 */
class ChatContextTest extends OnFakeGateway {
    private static final String S1 = "/api/v1/sessions/s1";
    private static final String IDLE = "{\"sessionId\":\"s1\",\"status\":\"IDLE\",\"lastSeq\":3}";

    @BeforeEach
    void routes() {
        gateway.json("POST", "/api/v1/sessions", 201, "{\"id\":\"s1\"}")
                .json("POST", S1 + "/messages", 202, "{\"inputId\":\"in-1\"}");
        gateway.sse(S1 + "/events", SseScript.thenHold(chunks(List.of(at(1, new SessionCreated("t")),
                at(2, new UserMessagePosted("hi")), at(3, new TurnEnded(TurnOutcome.COMPLETED, "Hi.", null))))));
    }

    private static String[] chunks(List<EventEnvelope> events) {
        List<String> chunks = new ArrayList<>();
        events.forEach(e -> chunks.add(FakeGateway.event(e)));
        return chunks.toArray(String[]::new);
    }

    /** The log: the first turn, then these events caused by the input {@code inputId}. */
    private static String log(String inputId, SessionEvent... after) {
        List<EventEnvelope> events = new ArrayList<>(List.of(at(1, new SessionCreated("t")),
                at(2, new UserMessagePosted("hi")), at(3, new TurnEnded(TurnOutcome.COMPLETED, "Hi.", null))));
        for (SessionEvent e : after) {
            long seq = events.size() + 1;
            events.add(new EventEnvelope("e" + seq, "s1", seq, Instant.parse("2025-01-01T10:00:00Z"), inputId, "u1", e));
        }
        return FakeGateway.ndjson(events);
    }

    @Test
    void soul_shows_the_preset_the_sessions_own_prompt_the_context_files_and_the_gauge() {
        gateway.json("GET", S1, 200, "{\"sessionId\":\"s1\",\"status\":\"IDLE\",\"lastSeq\":3,\"context\":{"
                + "\"tokensUsed\":1200,\"tokensEstimated\":false,\"window\":8000,\"windowSource\":\"setting\","
                + "\"usedShare\":0.15,\"preset\":\"code\",\"systemPrompt\":\"You are terse.\\nAnswer in English.\","
                + "\"files\":[{\"name\":\".soul.md\",\"chars\":42,\"truncated\":false},{\"name\":\"AGENTS.md\","
                + "\"chars\":8000,\"truncated\":true}],\"summary\":{\"text\":\"s\",\"throughSeq\":2,"
                + "\"messagesCovered\":4,\"compactions\":1},\"compacting\":false}}");
        cli.input("/soul", "hi", "/soul");

        assertThat(cli.run("chat")).isZero();

        assertThat(cli.err()).contains("no session yet; type a message to start one");
        assertThat(cli.out()).contains("preset         code", "system prompt  the session's own, 33 characters:",
                "  You are terse.", "  Answer in English.",
                "context files  .soul.md (42 characters), AGENTS.md (8000 characters, cut)",
                "context        1200 tokens of 8000 (15%) · 4 older messages summarised");
    }

    @Test
    void soul_of_a_session_with_nothing_of_its_own_says_so() {
        gateway.json("GET", S1, 200, "{\"sessionId\":\"s1\",\"status\":\"IDLE\",\"lastSeq\":3,\"context\":{"
                + "\"tokensUsed\":0,\"tokensEstimated\":true,\"files\":[],\"compacting\":false}}");
        cli.input("hi", "/soul");

        assertThat(cli.run("chat")).isZero();

        assertThat(cli.out()).contains("preset         none", "system prompt  the installation's",
                "context files  none (.soul.md, AGENTS.md or .agentbus.md in the workspace)",
                "context        0 tokens (estimated) · window unknown");
    }

    @Test
    void compact_follows_the_log_to_the_summary() {
        gateway.json("GET", S1, 200, IDLE)
                .json("POST", S1 + "/compact", 202, "{\"inputId\":\"in-c\"}")
                .jsonSequence("GET", S1 + "/log", 200, log("in-c"), log("in-c",
                        new ContextCompactionRequested("q1", 2, 4, "requested by u1", "u1"),
                        new ContextCompacted("q1", 2, 4, "The user greeted; the agent answered.", TokenUsage.ZERO)));
        cli.input("hi", "/compact");

        assertThat(cli.run("chat")).isZero();

        assertThat(gateway.requests("POST", S1 + "/compact")).hasSize(1);
        assertThat(cli.out()).contains("compacting: the model summarises the older conversation…",
                "✓ compacted: 4 older messages are summarised; the prompt carries the summary from now on",
                "The user greeted; the agent answered.");
        assertThat(cli.err()).isEmpty();
    }

    @Test
    void compact_says_why_the_orchestrator_refused_or_the_summary_failed() {
        gateway.json("GET", S1, 200, IDLE)
                .json("POST", S1 + "/compact", 202, "{\"inputId\":\"in-c\"}")
                .jsonSequence("GET", S1 + "/log", 200,
                        log("in-c", new InputRejected("in-c", "compact_context.v1", "nothing to compact: the newest "
                                + "8 messages and the first one are always kept")),
                        log("in-c", new InputRejected("in-c", "compact_context.v1", "nothing to compact: the newest "
                                        + "8 messages and the first one are always kept"),
                                new ContextCompactionRequested("q2", 2, 4, "requested by u1", "u1"),
                                new ContextCompactionFailed("q2", "model call failed: HTTP 500")));
        cli.input("hi", "/compact");

        assertThat(cli.run("chat")).isZero();

        assertThat(cli.out()).contains("not compacted: nothing to compact: the newest 8 messages and the first one "
                + "are always kept");
    }

    @Test
    void a_failed_summary_is_reported_and_a_409_shows_the_gateways_reason() {
        gateway.json("GET", S1, 200, IDLE)
                .answers("POST", S1 + "/compact", 202, "{\"inputId\":\"in-c\"}", 409,
                        "{\"error\":\"conflict\",\"message\":\"session s1 is running; compact it once the turn has "
                                + "ended\"}")
                .json("GET", S1 + "/log", 200, log("in-c",
                        new ContextCompactionRequested("q2", 2, 4, "requested by u1", "u1"),
                        new ContextCompactionFailed("q2", "model call failed: HTTP 500")));
        cli.input("hi", "/compact", "/compact", "/session");

        assertThat(cli.run("chat")).isZero();

        assertThat(cli.err()).contains("the summary failed: model call failed: HTTP 500; the conversation is kept as "
                + "it was", "session s1 is running; compact it once the turn has ended");
        assertThat(cli.out()).contains("you> /session");
    }
}
