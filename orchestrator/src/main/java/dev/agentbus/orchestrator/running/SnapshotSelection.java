package dev.agentbus.orchestrator.running;

import dev.agentbus.events.state.SessionSnapshot;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * Which snapshot each session of a partition starts from, and where the partition's events are read from. Fed the
 * records of the partition's snapshot topic in order ({@link #offer}), it keeps the latest per session (the topic
 * is compacted, but compaction may not have run yet; a tombstone deletes one on purpose) and decodes only those.
 *
 * <p>A snapshot is unusable when it does not decode (not JSON, another schema version, a state that contradicts
 * its key), was written for another partition, or names an event beyond the end of the log: its session is then
 * folded from its first event. If fewer snapshots are found than the newest one says the partition had, one went
 * missing and nothing says where its session's events are, so the partition is read from offset 0; the same when
 * the snapshots claim to cover more of the log than there is. Usable snapshots still spare their sessions' events
 * in both cases.
 */
final class SnapshotSelection {
    private static final Logger LOG = LoggerFactory.getLogger(SnapshotSelection.class);

    /**
     * @param usable          the snapshot each of these sessions starts from
     * @param unusableKeys    sessions whose latest snapshot cannot be used: folded from their first event
     * @param coveredBelow    the watermark the newest usable snapshot states
     * @param fromStartReason why the partition must be read from offset 0 whatever the watermark, or null
     */
    record Choice(Map<String, SessionSnapshot> usable, Set<String> unusableKeys, long coveredBelow,
                  String fromStartReason) {
        /** No snapshots at all (or snapshots turned off): every session folded from offset 0. */
        static final Choice NONE = new Choice(Map.of(), Set.of(), 0, null);

        /** Where the first read of the partition's events starts. */
        long startOffset(long eventsEnd) {
            return fromStartReason == null ? Math.min(coveredBelow, eventsEnd) : 0;
        }
    }

    private final int partition;
    private final Map<String, StoredRecord> latest = new HashMap<>();

    SnapshotSelection(int partition) {
        this.partition = partition;
    }

    /** The next record of the partition's snapshot topic (records come in offset order). */
    void offer(StoredRecord record) {
        if (record.key() == null) {
            return;
        }
        if (record.value() == null) {
            latest.remove(record.key()); // a tombstone: the snapshot was deleted on purpose
        } else {
            latest.put(record.key(), record);
        }
    }

    /** The choice, once every snapshot record was offered; {@code eventsEnd} is the end of the events partition. */
    Choice choose(long eventsEnd) {
        Map<String, SessionSnapshot> usable = new HashMap<>();
        Set<String> unusable = new HashSet<>();
        SessionSnapshot newest = null;
        long newestOffset = -1;
        for (StoredRecord r : latest.values()) {
            try {
                SessionSnapshot s = check(SessionSnapshot.decode(r.key(), r.value()), eventsEnd);
                usable.put(r.key(), s);
                if (r.offset() > newestOffset) {
                    newest = s;
                    newestOffset = r.offset();
                }
            } catch (SessionSnapshot.UnusableSnapshotException e) {
                LOG.warn("snapshot of session {} (partition {}, offset {}) ignored, the session is folded from the "
                        + "log: {}", r.key(), partition, r.offset(), e.getMessage());
                unusable.add(r.key());
            }
        }
        if (newest == null) {
            return new Choice(Map.of(), unusable, 0, null);
        }
        if (latest.size() < newest.snapshotsInPartition()) {
            return fromStart(usable, "found " + latest.size() + " snapshots where the newest says there were "
                    + newest.snapshotsInPartition() + ": one is missing, so the partition is read from offset 0");
        }
        if (newest.coveredBelow() > eventsEnd) {
            return fromStart(usable, "the snapshots cover offsets up to " + newest.coveredBelow()
                    + " but the log ends at " + eventsEnd);
        }
        return new Choice(usable, unusable, newest.coveredBelow(), null);
    }

    private SessionSnapshot check(SessionSnapshot s, long eventsEnd) {
        if (s.partition() != partition) {
            throw new SessionSnapshot.UnusableSnapshotException("written for partition " + s.partition());
        }
        if (s.eventOffset() >= eventsEnd) {
            throw new SessionSnapshot.UnusableSnapshotException("its event offset " + s.eventOffset()
                    + " is beyond the end of the log (" + eventsEnd + ")");
        }
        return s;
    }

    /** A read from offset 0 folds the unusable ones from their first event anyway: no need to name them. */
    private Choice fromStart(Map<String, SessionSnapshot> usable, String why) {
        LOG.warn("partition {}: {}", partition, why);
        return new Choice(usable, Set.of(), 0, why);
    }
}
