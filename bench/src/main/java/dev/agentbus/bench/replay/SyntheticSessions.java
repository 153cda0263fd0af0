package dev.agentbus.bench.replay;

import dev.agentbus.events.session.EventEnvelope;
import dev.agentbus.events.session.SessionEvent;
import dev.agentbus.events.session.SessionEvent.MemoryAttached;
import dev.agentbus.events.session.SessionEvent.ModelCallCompleted;
import dev.agentbus.events.session.SessionEvent.ModelCallStarted;
import dev.agentbus.events.session.SessionEvent.SessionCreated;
import dev.agentbus.events.session.SessionEvent.ToolCallCompleted;
import dev.agentbus.events.session.SessionEvent.ToolCallRequested;
import dev.agentbus.events.session.SessionEvent.ToolCallStarted;
import dev.agentbus.events.session.SessionEvent.TurnEnded;
import dev.agentbus.events.session.SessionEvent.UserMessagePosted;
import dev.agentbus.events.session.ShellState;
import dev.agentbus.events.session.TokenUsage;
import dev.agentbus.events.session.ToolCallSpec;
import dev.agentbus.events.session.TurnOutcome;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Session logs shaped like real agent work, for the replay benchmarks: turns of a user message, one to three model
 * calls each asking for one or two tool calls (shell, read, write, grep) whose results carry outputs of 100 B to
 * 2 KiB, token usage on every model answer, and a final answer. Deterministic for a seed.
 */
public final class SyntheticSessions {
    static final Instant T0 = Instant.parse("2025-03-14T09:00:00Z");
    private static final String[] TOOLS = {"shell", "read", "write", "grep"};
    private static final String FILLER = "The quick brown fox jumps over the lazy dog; 0123456789 ABCDEFGHIJ. ";

    private SyntheticSessions() {
    }

    /** Exactly {@code count} events of one session, seq 1 … count (the last turn may be cut short). */
    public static List<EventEnvelope> session(String sessionId, int count, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        List<SessionEvent> events = new ArrayList<>(count + 16);
        events.add(new SessionCreated("synthetic " + sessionId));
        int call = 0;
        for (int turn = 1; events.size() < count; turn++) {
            events.add(new UserMessagePosted("Step " + turn + ": " + text(random, 60, 400)));
            if (turn == 1 || random.nextInt(20) == 0) {
                events.add(new MemoryAttached("- prefers short answers\n- uses Java 21\n" + text(random, 0, 200), turn));
            }
            int modelCalls = 1 + random.nextInt(3);
            for (int i = 1; i <= modelCalls; i++) {
                String request = "req-" + turn + "-" + i;
                events.add(new ModelCallStarted(request, i));
                List<ToolCallSpec> calls = new ArrayList<>();
                int n = 1 + (random.nextInt(4) == 0 ? 1 : 0);
                for (int k = 0; k < n; k++) {
                    String tool = TOOLS[random.nextInt(TOOLS.length)];
                    calls.add(new ToolCallSpec("call_" + (++call), tool,
                            "{\"command\":\"" + tool + " src/Main" + call + ".java\",\"timeout_seconds\":30}"));
                }
                events.add(new ModelCallCompleted(request, "qwen2.5-coder-7b-instruct", null,
                        random.nextBoolean() ? text(random, 40, 300) : null, calls, usage(random), "tool_calls"));
                for (ToolCallSpec c : calls) {
                    events.add(new ToolCallRequested(c.id(), c.name(), c.arguments()));
                    events.add(new ToolCallStarted(c.id(), "sandbox-worker-0"));
                    boolean ok = random.nextInt(10) != 0;
                    events.add(new ToolCallCompleted(c.id(), ok, text(random, 100, 2048), ok ? null : "exit code 1",
                            c.name().equals("write") ? "--- a\n+++ b\n@@ -1 +1 @@\n-x\n+y\n" : null, false,
                            5 + random.nextInt(500), false,
                            c.name().equals("shell") ? new ShellState("/workspace", Map.of("PROJECT", "demo")) : null,
                            null, null));
                }
            }
            String answer = "Done with step " + turn + ". " + text(random, 40, 600);
            events.add(new ModelCallStarted("req-" + turn + "-final", modelCalls + 1));
            events.add(new ModelCallCompleted("req-" + turn + "-final", "qwen2.5-coder-7b-instruct", answer,
                    null, List.of(), usage(random), "stop"));
            events.add(new TurnEnded(TurnOutcome.COMPLETED, answer, null));
        }
        List<EventEnvelope> out = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            long seq = i + 1;
            out.add(new EventEnvelope("evt-" + sessionId + "-" + seq, sessionId, seq, T0.plusMillis(seq * 750),
                    "inp-" + sessionId + "-" + seq, "usr_ada", events.get(i)));
        }
        return out;
    }

    private static TokenUsage usage(SplittableRandom random) {
        int prompt = 1000 + random.nextInt(20_000);
        int completion = 20 + random.nextInt(800);
        return new TokenUsage(prompt, completion, prompt + completion);
    }

    private static String text(SplittableRandom random, int min, int max) {
        int length = min + random.nextInt(max - min + 1);
        StringBuilder s = new StringBuilder(length);
        int offset = random.nextInt(FILLER.length());
        while (s.length() < length) {
            s.append(FILLER, offset, FILLER.length());
            offset = 0;
        }
        s.setLength(length);
        return s.toString();
    }
}
