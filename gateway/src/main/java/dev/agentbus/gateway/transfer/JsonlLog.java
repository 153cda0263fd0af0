package dev.agentbus.gateway.transfer;

import dev.agentbus.events.codec.EventCodec;
import dev.agentbus.events.codec.MalformedRecordException;
import dev.agentbus.events.session.EventEnvelope;
import dev.agentbus.events.session.SessionEvent;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * A session log as JSON Lines, the export format: one event envelope per line, exactly as stored on
 * {@code agentbus.session-events} (see docs/events.md). Reading is strict about what makes a log a log (every line
 * an envelope, one session, seq 1, 2, 3 … without a gap, starting with the session's creation or fork) and tolerant
 * about the rest: an event type this code does not know is kept, as everywhere (invariant 6).
 */
final class JsonlLog {
    private JsonlLog() {
    }

    /** A line that makes the file unusable; {@code line} is 1-based, as an editor shows it. */
    public static final class BadLine extends Exception {
        private final int line;

        BadLine(int line, String message) {
            super("line " + line + ": " + message);
            this.line = line;
        }

        public int line() {
            return line;
        }
    }

    /** One envelope per line, each ending in a newline. */
    public static String write(List<EventEnvelope> events) {
        return events.stream().map(EventCodec::eventToJson).collect(Collectors.joining("\n", "", "\n"));
    }

    /**
     * Reads an exported log. Blank lines are skipped (an editor may add one at the end).
     *
     * @throws BadLine naming the first line that is wrong, and why
     */
    public static List<EventEnvelope> read(String body) throws BadLine {
        List<EventEnvelope> events = new ArrayList<>();
        String[] lines = body == null ? new String[0] : body.split("\r?\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String text = lines[i];
            if (text.isBlank()) {
                continue;
            }
            int line = i + 1;
            EventEnvelope e;
            try {
                e = EventCodec.decodeEvent(text);
            } catch (MalformedRecordException ex) {
                throw new BadLine(line, "not an event envelope: " + ex.getMessage());
            }
            if (events.isEmpty()) {
                if (!(e.event() instanceof SessionEvent.SessionCreated) && !(e.event() instanceof SessionEvent.SessionForked)) {
                    throw new BadLine(line, "a session log starts with session.created.v1 or session.forked.v1, "
                            + "not " + EventCodec.typeOf(e.event()));
                }
            } else if (!e.sessionId().equals(events.getFirst().sessionId())) {
                throw new BadLine(line, "event of session " + e.sessionId() + " in the log of session "
                        + events.getFirst().sessionId() + " (one session per file)");
            }
            long expected = events.size() + 1L;
            if (e.seq() != expected) {
                throw new BadLine(line, "seq " + e.seq() + " where " + expected
                        + " was expected (a log's seqs are 1, 2, 3 … without gaps)");
            }
            events.add(e);
        }
        if (events.isEmpty()) {
            throw new BadLine(1, "the file holds no events");
        }
        return events;
    }
}
