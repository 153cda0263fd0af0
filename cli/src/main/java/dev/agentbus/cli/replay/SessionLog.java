package dev.agentbus.cli.replay;

import dev.agentbus.events.codec.EventCodec;
import dev.agentbus.events.codec.MalformedRecordException;
import dev.agentbus.events.session.EventEnvelope;

import java.util.ArrayList;
import java.util.List;

/**
 * A session's log read from JSON Lines (an exported file, or the gateway's log): one event envelope per line.
 * Strict where a wrong file would give a wrong replay (each line an envelope, one session, seq 1, 2, 3 … without
 * gaps), tolerant where the events module is (an event type this CLI does not know is kept and shown as unknown).
 */
public final class SessionLog {
    private SessionLog() {
    }

    /** A line that makes the file unusable, with its 1-based number and the source's name in the message. */
    public static final class BadLog extends Exception {
        public BadLog(String message) {
            super(message);
        }
    }

    /**
     * @param source how to name the input in messages ("run.jsonl", "the gateway's log of ID")
     * @param lines  the lines; blank ones are skipped
     */
    public static List<EventEnvelope> parse(String source, List<String> lines) throws BadLog {
        List<EventEnvelope> events = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            String text = lines.get(i);
            if (text.isBlank()) {
                continue;
            }
            String where = source + " line " + (i + 1);
            EventEnvelope e;
            try {
                e = EventCodec.decodeEvent(text);
            } catch (MalformedRecordException ex) {
                throw new BadLog(where + " is not an event envelope: " + ex.getMessage());
            }
            if (!events.isEmpty() && !e.sessionId().equals(events.getFirst().sessionId())) {
                throw new BadLog(where + " belongs to session " + e.sessionId() + ", the lines before it to "
                        + events.getFirst().sessionId() + " (one session per file)");
            }
            long expected = events.size() + 1L;
            if (e.seq() != expected) {
                throw new BadLog(where + " has seq " + e.seq() + " where " + expected
                        + " was expected (a log's seqs are 1, 2, 3 … without gaps)");
            }
            events.add(e);
        }
        if (events.isEmpty()) {
            throw new BadLog(source + " holds no events");
        }
        return events;
    }
}
