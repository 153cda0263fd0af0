package dev.agentbus.orchestrator.running;

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

import java.util.ArrayList;
import java.util.List;

/** Sessions as the orchestrator records them: turns of a message, a tool call with its output, and an answer. */
final class SampleHistories {
    private SampleHistories() {
    }

    /** Exactly {@code count} events of one session (the last turn may be cut short). */
    static List<SessionEvent> session(String name, int count) {
        return session(name, count, 0);
    }

    /** The same, each tool output padded with {@code outputBytes} random letters (which hardly compress). */
    static List<SessionEvent> session(String name, int count, int outputBytes) {
        java.util.SplittableRandom random = new java.util.SplittableRandom(name.hashCode());
        List<SessionEvent> out = new ArrayList<>();
        out.add(new SessionCreated(name));
        for (int turn = 1; out.size() < count; turn++) {
            String call = "call-" + turn;
            String args = "{\"command\":\"cat notes-" + turn + ".txt\"}";
            out.add(new UserMessagePosted("step " + turn + " of " + name));
            out.add(new ModelCallStarted("req-" + turn + "a", 1));
            out.add(new ModelCallCompleted("req-" + turn + "a", "qwen", null, "read the notes first",
                    List.of(new ToolCallSpec(call, "shell", args)), new TokenUsage(900 + turn, 40, 940 + turn),
                    "tool_calls"));
            out.add(new ToolCallRequested(call, "shell", args));
            out.add(new ToolCallStarted(call, "worker-0"));
            StringBuilder padding = new StringBuilder(outputBytes);
            for (int i = 0; i < outputBytes; i++) {
                padding.append((char) ('a' + random.nextInt(26)));
            }
            out.add(new ToolCallCompleted(call, true, "notes of turn " + turn + "\n".repeat(3) + padding, null, null,
                    false, 12, false));
            out.add(new ModelCallStarted("req-" + turn + "b", 2));
            out.add(new ModelCallCompleted("req-" + turn + "b", "qwen", "done with step " + turn, null, List.of(),
                    new TokenUsage(1000 + turn, 20, 1020 + turn), "stop"));
            out.add(new TurnEnded(TurnOutcome.COMPLETED, "done with step " + turn, null));
        }
        return out.subList(0, count);
    }
}
