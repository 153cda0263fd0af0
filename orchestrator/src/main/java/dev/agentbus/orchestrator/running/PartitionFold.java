package dev.agentbus.orchestrator.running;

import dev.agentbus.events.codec.EventCodec;
import dev.agentbus.events.codec.MalformedRecordException;
import dev.agentbus.events.session.EventEnvelope;
import dev.agentbus.events.state.SessionFold;
import dev.agentbus.events.state.SessionSnapshot;
import dev.agentbus.events.state.SessionState;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Folds a partition's events into the states of its sessions, each starting from its chosen snapshot
 * ({@link SnapshotSelection}) or from nothing, and records what the snapshots cover ({@link SnapshotCoverage}).
 *
 * <p>The first pass reads from the partition's watermark on: events a session's snapshot already holds are not
 * even decoded. A snapshot that turns out wrong (the event at its offset is unreadable or another one, or the
 * session's next event does not have the next seq) is dropped, and its session, like the sessions whose snapshot was
 * unusable from the start, is folded from its first event in a second pass from offset 0. So the result is always
 * exactly the fold of the log; a bad snapshot only costs time.
 */
final class PartitionFold {
    private static final Logger LOG = LoggerFactory.getLogger(PartitionFold.class);

    /** Reads {@code [from, to)} of the events partition in offset order, handing each record over. */
    @FunctionalInterface
    interface EventReader {
        void read(long from, long to, Consumer<StoredRecord> each);
    }

    /**
     * @param snapshotsUsed    sessions started from their snapshot
     * @param snapshotsIgnored snapshots that could not be used (their sessions were folded from the log)
     * @param startOffset      where the first pass started
     * @param eventsRead       event records read, in both passes
     * @param eventsFolded     events decoded and folded
     */
    record Folded(Map<String, SessionState> states, SnapshotCoverage coverage, int snapshotsUsed,
                  int snapshotsIgnored, long startOffset, long eventsRead, long eventsFolded) {
    }

    private PartitionFold() {
    }

    /** Folds the events below {@code end} of the partition, starting from {@code choice}'s snapshots. */
    static Folded fold(int partition, SnapshotSelection.Choice choice, long end, EventReader events) {
        Pass pass = new Pass(partition, choice.usable());
        long start = choice.startOffset(end);
        Set<String> suspects = new HashSet<>(choice.unusableKeys());
        if (start == 0) {
            suspects.clear(); // a pass from 0 folds them from their first event anyway
        }
        events.read(start, end, r -> pass.apply(r, suspects, start));
        long eventsRead = pass.read;
        if (!suspects.isEmpty()) {
            // Some sessions cannot start from their snapshot: fold just those from offset 0.
            Pass full = new Pass(partition, Map.of());
            events.read(0, end, r -> {
                if (suspects.contains(r.key())) {
                    full.apply(r, new HashSet<>(), 0);
                }
            });
            eventsRead += full.read;
            pass.replace(suspects, full);
        }
        pass.finish(end);
        return new Folded(pass.states, pass.coverage, pass.snapshotsUsed(),
                choice.unusableKeys().size() + pass.rejected, start, eventsRead, pass.folded);
    }

    /** One pass over the events: folds each session onto its snapshot (or from nothing) and checks the seq chain. */
    private static final class Pass {
        final int partition;
        final Map<String, SessionState> states = new HashMap<>();
        final SnapshotCoverage coverage;
        final Map<String, SessionSnapshot> snapshots;
        long read;
        long folded;
        int rejected;

        Pass(int partition, Map<String, SessionSnapshot> snapshots) {
            this.partition = partition;
            this.coverage = new SnapshotCoverage(partition);
            this.snapshots = new HashMap<>(snapshots);
        }

        /** Folds the record unless its session's snapshot covers it or the session waits for the second pass. */
        void apply(StoredRecord r, Set<String> suspects, long start) {
            read++;
            String key = r.key();
            if (suspects.contains(key)) {
                return; // folded in the second pass
            }
            SessionSnapshot snapshot = snapshots.get(key);
            if (snapshot != null && r.offset() < snapshot.eventOffset()) {
                return; // covered: not even decoded
            }
            EventEnvelope e;
            try {
                e = EventCodec.decodeEvent(r.value());
            } catch (MalformedRecordException ex) {
                LOG.warn("unreadable event at offset {} of partition {} skipped: {}", r.offset(), partition,
                        ex.getMessage());
                if (snapshot != null && r.offset() == snapshot.eventOffset()) {
                    reject(key, "the event at its offset is unreadable", suspects);
                }
                return;
            }
            if (snapshot != null && r.offset() == snapshot.eventOffset()) {
                if (!e.sessionId().equals(key) || e.seq() != snapshot.seq()) {
                    reject(key, "the event at its offset is seq " + e.seq() + " of " + e.sessionId(), suspects);
                }
                return; // the snapshot's own last event: already in its state
            }
            SessionState state = states.get(e.sessionId());
            if (state == null) {
                state = snapshot != null ? snapshot.state() : SessionState.initial(e.sessionId());
            }
            if ((start > 0 || snapshot != null) && e.seq() != state.lastSeq() + 1) {
                // After a snapshot, or reading from a watermark, a session's next event must have the next seq:
                // otherwise its snapshot is wrong or gone, and only its whole log says what its state is. (Reading
                // a session from offset 0 without a snapshot, a gap is in the log itself: it folds as it always did.)
                reject(e.sessionId(), "the log continues with seq " + e.seq() + " after seq " + state.lastSeq(),
                        suspects);
                return;
            }
            states.put(e.sessionId(), SessionFold.evolve(state, e));
            coverage.event(e.sessionId(), e.seq(), r.offset());
            folded++;
        }

        private void reject(String sessionId, String why, Set<String> suspects) {
            LOG.warn("session {} is folded from offset 0: {}", sessionId, why);
            if (snapshots.remove(sessionId) != null) {
                rejected++;
            }
            states.remove(sessionId);
            coverage.forget(sessionId);
            suspects.add(sessionId);
        }

        /** Takes these sessions' states and coverage from a full pass instead. */
        void replace(Set<String> sessions, Pass full) {
            for (String id : sessions) {
                snapshots.remove(id);
                states.remove(id);
                SessionState s = full.states.get(id);
                if (s != null) {
                    states.put(id, s);
                }
            }
            read += full.read;
            folded += full.folded;
            for (String id : sessions) {
                coverage.forget(id);
                SnapshotCoverage.Uncovered u = full.coverage.uncovered(id);
                if (u != null) {
                    coverage.event(id, u.lastSeq(), u.firstOffset()); // first offset is what holds the watermark
                    coverage.event(id, u.lastSeq(), u.lastOffset());
                }
            }
        }

        /** Sessions with a snapshot and no newer event start from the snapshot; everything below end is read. */
        void finish(long end) {
            for (Map.Entry<String, SessionSnapshot> e : snapshots.entrySet()) {
                states.putIfAbsent(e.getKey(), e.getValue().state());
                coverage.snapshot(e.getKey(), e.getValue().seq());
            }
            coverage.readUpTo(end);
        }

        int snapshotsUsed() {
            return snapshots.size();
        }
    }
}
