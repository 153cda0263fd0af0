package dev.agentbus.cli.replay;

import dev.agentbus.api.SessionDetails;
import dev.agentbus.cli.Printer;
import dev.agentbus.cli.render.SessionView;
import dev.agentbus.cli.render.Text;
import dev.agentbus.events.session.EventEnvelope;
import dev.agentbus.events.state.SessionFold;
import dev.agentbus.events.state.SessionState;
import dev.agentbus.events.state.ToolCallView;

import java.io.BufferedReader;
import java.io.IOException;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;

/**
 * Replays a recorded session: the timeline of its events and its folded state at any seq, computed here with the
 * same {@link SessionFold} the services use. It never calls a model or runs a tool (invariant 3): everything it shows
 * is in the log, so it works offline from an exported file.
 */
public final class Replayer {
    private final List<EventEnvelope> log;
    /** states.get(i) is the state after the first i events; states.get(0) is the state before any. */
    private final List<SessionState> states = new ArrayList<>();
    private final Printer p;
    private final Timeline timeline;

    /** @param log a whole log, seq 1..N without gaps (as {@link SessionLog#parse} returns it) */
    public Replayer(List<EventEnvelope> log, Printer printer, ZoneId zone) {
        this.log = List.copyOf(log);
        this.p = printer;
        this.timeline = new Timeline(printer, zone);
        SessionState state = SessionState.initial(log.getFirst().sessionId());
        states.add(state);
        for (EventEnvelope e : log) {
            state = SessionFold.evolve(state, e);
            states.add(state);
        }
    }

    public long lastSeq() {
        return log.size();
    }

    /** The folded state after the event with this seq (0: before the first event). */
    public SessionState stateAt(long seq) {
        return states.get((int) Math.max(0, Math.min(seq, lastSeq())));
    }

    /** The timeline of the events with seq 1 to {@code upTo}. */
    public void timeline(long upTo) {
        timeline.header(log.getFirst());
        for (long seq = 1; seq <= upTo; seq++) {
            entry(seq);
        }
    }

    /** The folded state at a seq: the same view as {@code agentbus show}, plus the workspace checkpoints. */
    public void state(long seq) {
        SessionState s = stateAt(seq);
        p.println("");
        p.println(p.bold("State at seq " + seq + " of " + lastSeq()));
        new SessionView(p).render(SessionDetails.of(s));
        if (s.forkedFrom() != null) {
            p.println(p.dim("forked from " + s.forkedFrom() + " at seq " + s.forkedAtSeq()));
        }
        List<ToolCallView> withCheckpoint = s.toolCalls().values().stream()
                .filter(v -> v.checkpoint() != null).toList();
        if (!withCheckpoint.isEmpty()) {
            p.println("");
            p.println(p.bold("Checkpoints") + p.dim(" (agentbus rewind ID CHECKPOINT restores one)"));
            for (ToolCallView v : withCheckpoint) {
                String mark = v.checkpoint().equals(s.checkpoint()) ? p.green(" ← latest") : "";
                p.println("  " + v.checkpoint() + p.dim("  after " + v.name() + " "
                        + Text.compactJson(v.arguments(), 80)) + mark);
            }
        }
        if (s.checkpoint() != null && withCheckpoint.stream().noneMatch(v -> v.checkpoint().equals(s.checkpoint()))) {
            p.println(p.dim("workspace checkpoint " + s.checkpoint()));
        }
    }

    /**
     * Steps through the log: the events up to {@code from} at once, then one event per line read from
     * {@code input} (Enter: the next event; {@code s}: the state here; {@code q}: stop). It reads lines, not keys,
     * so it works the same from a terminal and from a pipe. Ends at the end of the log, at {@code q} or at the end
     * of the input, and then shows the state where it stopped.
     *
     * @param prompt show a prompt before each read (a person is typing)
     */
    public void step(long from, BufferedReader input, boolean prompt) throws IOException {
        timeline(from);
        long seq = from;
        while (seq < lastSeq()) {
            seq++;
            entry(seq);
            String command = next(input, prompt, seq);
            while ("s".equalsIgnoreCase(command)) {
                state(seq);
                command = next(input, prompt, seq);
            }
            if (command == null || "q".equalsIgnoreCase(command)) {
                break;
            }
        }
        if (seq == lastSeq()) {
            p.println(p.dim("(end of the log)"));
        }
        state(seq);
    }

    private String next(BufferedReader input, boolean prompt, long seq) throws IOException {
        if (seq >= lastSeq()) {
            return null;
        }
        if (prompt) {
            p.prompt(p.dim("[Enter] next · s state · q quit > "));
        }
        String line = input.readLine();
        return line == null ? null : line.strip();
    }

    private void entry(long seq) {
        EventEnvelope e = log.get((int) seq - 1);
        timeline.entry(e, seq == 1 ? null : log.get((int) seq - 2), stateAt(seq - 1));
    }
}
