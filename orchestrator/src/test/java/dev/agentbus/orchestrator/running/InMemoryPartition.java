package dev.agentbus.orchestrator.running;

import dev.agentbus.events.codec.EventCodec;
import dev.agentbus.events.session.EventEnvelope;
import dev.agentbus.events.session.SessionEvent;
import dev.agentbus.events.state.SessionFold;
import dev.agentbus.events.state.SessionSnapshot;
import dev.agentbus.events.state.SessionState;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A partition of session events laid out in memory as the engine writes it to Kafka: transactions of a few events of
 * one session, sessions interleaved, and a commit marker taking an offset after each transaction. Knows the truth
 * (every session's events, offsets and folded state) so a test can build snapshots at any seq and compare a rebuild
 * with the fold of the log. No broker.
 */
final class InMemoryPartition {
    static final int PARTITION = 0;
    private static final Instant T0 = Instant.parse("2025-03-14T09:00:00Z");

    private final List<StoredRecord> records = new ArrayList<>();
    final Map<String, SessionState> states = new LinkedHashMap<>();
    final Map<String, List<EventEnvelope>> logs = new HashMap<>();
    /** The offset of every event, per session, in seq order. */
    final Map<String, List<Long>> offsets = new HashMap<>();
    private long next;

    /** Appends the sessions' events, {@code perTransaction} events of one session per transaction, round robin. */
    InMemoryPartition write(Map<String, List<SessionEvent>> sessions, int perTransaction) {
        Map<String, Integer> done = new HashMap<>();
        boolean more = true;
        while (more) {
            more = false;
            for (Map.Entry<String, List<SessionEvent>> s : sessions.entrySet()) {
                int from = done.getOrDefault(s.getKey(), 0);
                int to = Math.min(from + perTransaction, s.getValue().size());
                if (from < to) {
                    append(s.getKey(), s.getValue().subList(from, to));
                    done.put(s.getKey(), to);
                    more |= to < s.getValue().size();
                }
            }
        }
        return this;
    }

    /** Appends events of one session in one transaction, with the next seqs. */
    void append(String sessionId, List<SessionEvent> events) {
        SessionState state = states.getOrDefault(sessionId, SessionState.initial(sessionId));
        for (SessionEvent event : events) {
            long seq = state.lastSeq() + 1;
            EventEnvelope e = new EventEnvelope("evt-" + sessionId + "-" + seq, sessionId, seq, T0.plusSeconds(seq),
                    "inp-" + seq, "usr-ada", event);
            state = SessionFold.evolve(state, e);
            logs.computeIfAbsent(sessionId, k -> new ArrayList<>()).add(e);
            offsets.computeIfAbsent(sessionId, k -> new ArrayList<>()).add(next);
            records.add(new StoredRecord(sessionId, next++, EventCodec.encodeEvent(e)));
        }
        states.put(sessionId, state);
        next++; // the transaction's commit marker
    }

    /** A record under the session's key that is no event at all. */
    void appendRaw(String key, byte[] value) {
        records.add(new StoredRecord(key, next++, value));
    }

    /** Where the log ends: the next offset. */
    long end() {
        return next;
    }

    long offsetOf(String sessionId, int seq) {
        return offsets.get(sessionId).get(seq - 1);
    }

    /** The session's true state after its first {@code seq} events. */
    SessionState stateAt(String sessionId, int seq) {
        return SessionFold.fold(sessionId, logs.get(sessionId).subList(0, seq));
    }

    /** The state of a sample session (see {@link SampleHistories}) after {@code seq} events. */
    static SessionState stateAtSeq(String sessionId, int seq) {
        InMemoryPartition alone = new InMemoryPartition();
        alone.append(sessionId, SampleHistories.session(sessionId, seq));
        return alone.states.get(sessionId);
    }

    /** A true snapshot of the session at {@code seq}, at that event's offset. */
    SessionSnapshot snapshotAt(String sessionId, int seq, long coveredBelow, int snapshotsInPartition) {
        return SessionSnapshot.of(PARTITION, offsetOf(sessionId, seq), coveredBelow, snapshotsInPartition,
                Instant.EPOCH, stateAt(sessionId, seq));
    }

    /** The watermark once every session has a snapshot at {@code seq}: the first offset of an event after it. */
    long watermarkAfterSeq(int seq) {
        long watermark = next;
        for (List<Long> o : offsets.values()) {
            if (o.size() > seq) {
                watermark = Math.min(watermark, o.get(seq));
            }
        }
        return watermark;
    }

    /** Reads {@code [from, to)} as the loader reads Kafka. */
    PartitionFold.EventReader reader() {
        return (from, to, each) -> records.stream().filter(r -> r.offset() >= from && r.offset() < to)
                .forEach(each);
    }
}
