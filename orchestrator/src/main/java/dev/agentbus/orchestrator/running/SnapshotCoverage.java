package dev.agentbus.orchestrator.running;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What the snapshots of one session-events partition cover: for each session, the seq of its snapshot on
 * {@code agentbus.session-snapshots}, and the events no snapshot covers yet. From that follow which sessions are due
 * for a snapshot and the partition's watermark ({@link #coveredBelow()}): the offset below which every event is
 * covered, where the next owner may start reading the partition.
 *
 * <p>Plain bookkeeping, no Kafka: the loader fills it while it rebuilds a partition, the engine updates it after each
 * commit. Not thread-safe; one loop thread owns it.
 */
public final class SnapshotCoverage {

    /** A session's events that no snapshot covers: the first one's offset, and the last one's offset and seq. */
    public record Uncovered(long firstOffset, long lastOffset, long lastSeq) {
    }

    private final int partition;
    private final Map<String, Long> snapshotSeq = new HashMap<>();
    private final Map<String, Uncovered> uncovered = new HashMap<>();
    /** Sessions whose last snapshot could not be written (too large): retried only after this seq. */
    private final Map<String, Long> retryAfterSeq = new HashMap<>();
    private long nextOffset;

    public SnapshotCoverage(int partition) {
        this.partition = partition;
    }

    public int partition() {
        return partition;
    }

    /** An event of the session is in the log at this offset (folded while loading, or committed by the engine). */
    public void event(String sessionId, long seq, long offset) {
        uncovered.merge(sessionId, new Uncovered(offset, offset, seq),
                (old, now) -> new Uncovered(old.firstOffset(), offset, seq));
        nextOffset = Math.max(nextOffset, offset + 1);
    }

    /** Everything below this offset has been read: the watermark when every session is covered. */
    public void readUpTo(long offset) {
        nextOffset = Math.max(nextOffset, offset);
    }

    /** The session has a usable snapshot at this seq on the topic (found by the loader, or just written). */
    public void snapshot(String sessionId, long seq) {
        snapshotSeq.put(sessionId, seq);
        retryAfterSeq.remove(sessionId);
        Uncovered u = uncovered.get(sessionId);
        if (u != null && u.lastSeq() <= seq) {
            uncovered.remove(sessionId);
        }
    }

    /** Drops what is known of the session (the loader found its snapshot unusable and folds it afresh). */
    public void forget(String sessionId) {
        snapshotSeq.remove(sessionId);
        uncovered.remove(sessionId);
        retryAfterSeq.remove(sessionId);
    }

    /** The session's snapshot at this seq could not be written; do not try again for {@code every} more events. */
    public void couldNotSnapshot(String sessionId, long seq) {
        retryAfterSeq.put(sessionId, seq);
    }

    public Uncovered uncovered(String sessionId) {
        return uncovered.get(sessionId);
    }

    public long snapshotSeq(String sessionId) {
        return snapshotSeq.getOrDefault(sessionId, 0L);
    }

    /** How many sessions of the partition have a snapshot. */
    public int snapshots() {
        return snapshotSeq.size();
    }

    /** Every event of the partition below this offset is covered by a snapshot. */
    public long coveredBelow() {
        long w = nextOffset;
        for (Uncovered u : uncovered.values()) {
            w = Math.min(w, u.firstOffset());
        }
        return w;
    }

    /** The watermark and snapshot count once these sessions' snapshots are written too (what those records say). */
    public long coveredBelowAfter(Collection<String> snapshotted) {
        long w = nextOffset;
        for (Map.Entry<String, Uncovered> e : uncovered.entrySet()) {
            if (!snapshotted.contains(e.getKey())) {
                w = Math.min(w, e.getValue().firstOffset());
            }
        }
        return w;
    }

    public int snapshotsAfter(Collection<String> snapshotted) {
        Set<String> all = new HashSet<>(snapshotSeq.keySet());
        all.addAll(snapshotted);
        return all.size();
    }

    /**
     * The sessions due for a snapshot, oldest uncovered first: those with at least {@code every} events since their
     * last snapshot, and idle ones: sessions with uncovered events whose last event lies more than {@code maxLag}
     * offsets behind the end of the partition. The second rule keeps the watermark moving: without it one session
     * that stopped a few events after its last snapshot would hold it back for ever, and every takeover would read
     * the partition from there. It looks at the last event, not the first uncovered one, so that sessions that are
     * merely slow among many busy ones are not snapshotted every few events.
     */
    public List<String> due(int every, long maxLag) {
        List<Map.Entry<String, Uncovered>> due = new ArrayList<>();
        for (Map.Entry<String, Uncovered> e : uncovered.entrySet()) {
            String id = e.getKey();
            Uncovered u = e.getValue();
            Long failedAt = retryAfterSeq.get(id);
            if (failedAt != null && u.lastSeq() < failedAt + every) {
                continue;
            }
            if (u.lastSeq() - snapshotSeq(id) >= every || nextOffset - u.lastOffset() > maxLag) {
                due.add(e);
            }
        }
        due.sort(Map.Entry.comparingByValue(java.util.Comparator.comparingLong(Uncovered::firstOffset)));
        return due.stream().map(Map.Entry::getKey).toList();
    }
}
