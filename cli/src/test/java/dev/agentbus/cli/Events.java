package dev.agentbus.cli;

import dev.agentbus.events.session.EventEnvelope;
import dev.agentbus.events.session.SessionEvent;
import dev.agentbus.events.session.SessionEvent.ModelCallCompleted;
import dev.agentbus.events.session.SessionEvent.ModelCallStarted;
import dev.agentbus.events.session.SessionEvent.SessionCreated;
import dev.agentbus.events.session.SessionEvent.ToolCallCompleted;
import dev.agentbus.events.session.SessionEvent.ToolCallRequested;
import dev.agentbus.events.session.SessionEvent.ToolCallStarted;
import dev.agentbus.events.session.SessionEvent.TurnEnded;
import dev.agentbus.events.session.SessionEvent.UserMessagePosted;
import dev.agentbus.events.session.TokenUsage;
import dev.agentbus.events.session.ToolCallSpec;
import dev.agentbus.events.session.TurnOutcome;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** Scripted session logs for the tests, built from the real event records and codec. */
public final class Events {
    public static final String SESSION = "s1";
    public static final String INPUT = "in-1";

    private Events() {
    }

    public static EventEnvelope at(long seq, SessionEvent event) {
        return new EventEnvelope("e" + seq, SESSION, seq, Instant.parse("2025-01-01T10:00:00Z").plusSeconds(seq),
                event instanceof UserMessagePosted ? INPUT : "cause-" + seq, "u1", event);
    }

    /**
     * A whole turn, seq 1..10: created, message, a model call that asks for a shell command (its content streamed
     * as a delta between 3 and 4 by the scripts), the tool call, a second model call with the answer (not streamed),
     * and turn.ended with the given outcome.
     */
    public static List<EventEnvelope> turn(TurnOutcome outcome, String answer, String message) {
        List<SessionEvent> events = List.of(
                new SessionCreated("count files"),
                new UserMessagePosted("How many files?"),
                new ModelCallStarted("r1", 1),
                new ModelCallCompleted("r1", "m", "Let me look.", null,
                        List.of(new ToolCallSpec("c1", "shell", "{\"command\": \"ls\"}")),
                        new TokenUsage(100, 10, 110), "tool_calls"),
                new ToolCallRequested("c1", "shell", "{\"command\": \"ls\"}"),
                new ToolCallStarted("c1", "w1"),
                new ToolCallCompleted("c1", true, "a.txt\nb.txt\n", null, null, false, 12, false),
                new ModelCallStarted("r2", 2),
                new ModelCallCompleted("r2", "m", answer, null, List.of(), new TokenUsage(200, 20, 220), "stop"),
                new TurnEnded(outcome, outcome == TurnOutcome.COMPLETED ? answer : null, message));
        List<EventEnvelope> envelopes = new ArrayList<>();
        for (int i = 0; i < events.size(); i++) {
            envelopes.add(at(i + 1, events.get(i)));
        }
        return envelopes;
    }

    /** The SSE chunks for events[from-1 .. to-1] (seqs from..to), with the token delta of r1 after seq 3. */
    public static String[] sse(List<EventEnvelope> events, int from, int to) {
        List<String> chunks = new ArrayList<>();
        for (EventEnvelope e : events.subList(from - 1, to)) {
            chunks.add(FakeGateway.event(e));
            if (e.seq() == 3) {
                chunks.add(FakeGateway.delta("TOKEN", "r1", "Let me "));
                chunks.add(FakeGateway.ping());
                chunks.add(FakeGateway.delta("TOKEN", "r1", "look."));
            }
        }
        return chunks.toArray(String[]::new);
    }
}
