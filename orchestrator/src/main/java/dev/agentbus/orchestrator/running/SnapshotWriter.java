package dev.agentbus.orchestrator.running;

import dev.agentbus.events.state.SessionSnapshot;
import dev.agentbus.events.state.SessionState;
import dev.agentbus.events.topics.Topics;
import dev.agentbus.eventbus.KafkaSettings;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;

/**
 * Writes each session's folded state to {@code agentbus.session-snapshots} every {@code every} events, so the next
 * owner of a partition folds only the events after the snapshots (see docs/snapshots.md).
 *
 * <p>Snapshots are written <em>after</em> the transaction of the events they describe has committed, in a
 * transaction of their own on the engine's producer:
 * <ul>
 * <li>after, because a snapshot then only ever describes committed events (it can never be ahead of the log), and
 *     because a snapshot needs the offset of its last event, which is known for sure only once that event is
 *     written. The input transaction stays as it was: no extra flush, and a snapshot that cannot be written never
 *     aborts real events;</li>
 * <li>in a transaction, because the snapshots of one round and the watermark they carry
 *     ({@link SessionSnapshot#coveredBelow()}) must become visible together: a reader must never see a watermark
 *     that claims a snapshot it cannot see. The transactional producer also fences a replaced instance.</li>
 * </ul>
 * A crash between the two transactions loses only the snapshots, which costs the next owner time, nothing else.
 *
 * <p>Used only from the engine's loop thread.
 */
public final class SnapshotWriter {
    private static final Logger LOG = LoggerFactory.getLogger(SnapshotWriter.class);
    /** Below the snapshot topic's record limit, with room for the record's key and framing. */
    static final int MAX_SNAPSHOT_BYTES = SnapshotTopic.MAX_RECORD_BYTES - 64 * 1024;

    /** An event the engine sent in a transaction; its offset is known once the transaction has committed. */
    public record Sent(String sessionId, long seq, Future<RecordMetadata> metadata) {
    }

    private final int every;
    private final long maxLag;
    private final int maxSnapshotBytes;
    private final Clock clock;
    private final Map<Integer, SnapshotCoverage> partitions = new ConcurrentHashMap<>();

    /**
     * @param every snapshot a session every this many events; 0 turns snapshots off (the loader then folds from
     *              offset 0, as without this class)
     */
    public SnapshotWriter(int every, Clock clock) {
        this(every, clock, MAX_SNAPSHOT_BYTES);
    }

    SnapshotWriter(int every, Clock clock, int maxSnapshotBytes) {
        if (every < 0) {
            throw new IllegalArgumentException("snapshot interval must be 0 (off) or more, not " + every);
        }
        this.every = every;
        // A session is idle, and snapshotted although it has fewer than `every` new events, once the partition has
        // moved this many offsets past its last event: far enough that a session merely waiting for its model or
        // tool is not, near enough that a takeover does not read far back for the sake of one quiet session.
        this.maxLag = Math.max(1_000L, 20L * every);
        this.clock = clock;
        this.maxSnapshotBytes = maxSnapshotBytes;
    }

    /**
     * The settings of the producer that writes events and snapshots (the engine's). LZ4 because a snapshot is tens of
     * KiB to MiBs of JSON that compresses several times over, and every takeover fetches all of a partition's; the
     * larger request size lets through the snapshots of long sessions (see {@link SnapshotTopic}).
     */
    public static Map<String, Object> producerSettings(KafkaSettings kafka, String role) {
        Map<String, Object> settings = new HashMap<>(kafka.transactionalProducer(role));
        settings.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4");
        settings.put(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, SnapshotTopic.MAX_RECORD_BYTES);
        return settings;
    }

    public boolean enabled() {
        return every > 0;
    }

    public int every() {
        return every;
    }

    /** The coverage the loader found when this instance took the partition over. */
    public void adopt(SnapshotCoverage coverage) {
        partitions.put(coverage.partition(), coverage);
    }

    public void forget(int partition) {
        partitions.remove(partition);
    }

    /** A new run of the engine starts with no partitions; each comes back with what its loader found. */
    public void forgetAll() {
        partitions.clear();
    }

    public SnapshotCoverage coverage(int partition) {
        return partitions.get(partition);
    }

    /**
     * After a commit: notes where the committed events are, then writes the snapshots that are due in the
     * partitions they touched. {@code states} gives each partition's current states by session id.
     *
     * @return how many snapshots were written
     */
    public int afterCommit(Producer<String, byte[]> producer, List<Sent> sent,
                           Map<Integer, ? extends Map<String, SessionState>> states) {
        if (!enabled() || sent.isEmpty()) {
            return 0;
        }
        Set<Integer> touched = new java.util.TreeSet<>();
        for (Sent s : sent) {
            RecordMetadata m;
            try {
                m = s.metadata().get(); // done: the commit flushed every send of the transaction
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return 0;
            } catch (ExecutionException e) {
                throw new IllegalStateException("an event of a committed transaction has no offset", e);
            }
            SnapshotCoverage coverage = partitions.get(m.partition());
            if (coverage != null) {
                coverage.event(s.sessionId(), s.seq(), m.offset());
                touched.add(m.partition());
            }
        }
        int written = 0;
        for (int partition : touched) {
            Map<String, SessionState> partitionStates = states.get(partition);
            if (partitionStates != null) {
                written += writeDue(producer, partition, partitionStates);
            }
        }
        return written;
    }

    /** Writes the partition's due snapshots in one transaction and returns how many. */
    public int writeDue(Producer<String, byte[]> producer, int partition, Map<String, SessionState> states) {
        SnapshotCoverage coverage = partitions.get(partition);
        if (!enabled() || coverage == null) {
            return 0;
        }
        List<String> due = coverage.due(every, maxLag);
        if (due.isEmpty()) {
            return 0;
        }
        Instant now = clock.instant();
        List<SessionState> snapshotted = new ArrayList<>();
        List<String> ids = new ArrayList<>();
        List<byte[]> values = new ArrayList<>();
        for (String id : due) {
            SessionState state = states.get(id);
            SnapshotCoverage.Uncovered u = coverage.uncovered(id);
            if (state != null && u != null && state.lastSeq() == u.lastSeq()) {
                snapshotted.add(state);
                ids.add(id);
            }
        }
        long coveredBelow = coverage.coveredBelowAfter(ids);
        int count = coverage.snapshotsAfter(ids);
        for (int i = 0; i < snapshotted.size(); i++) {
            SessionState state = snapshotted.get(i);
            byte[] value = SessionSnapshot.of(partition, coverage.uncovered(state.sessionId()).lastOffset(),
                    coveredBelow, count, now, state).encode();
            values.add(value);
        }
        // A state too large for one record is not snapshotted; its session is folded from the log on takeover.
        for (int i = snapshotted.size() - 1; i >= 0; i--) {
            if (values.get(i).length > maxSnapshotBytes) {
                SessionState state = snapshotted.get(i);
                LOG.warn("session {}: the snapshot at seq {} is {} bytes, more than {}; not written",
                        state.sessionId(), state.lastSeq(), values.get(i).length, maxSnapshotBytes);
                coverage.couldNotSnapshot(state.sessionId(), state.lastSeq());
                // The others' records must not claim this one is covered: start the round again without it.
                return writeDue(producer, partition, states);
            }
        }
        if (snapshotted.isEmpty()) {
            return 0;
        }
        producer.beginTransaction();
        try {
            for (int i = 0; i < snapshotted.size(); i++) {
                producer.send(new ProducerRecord<>(Topics.SESSION_SNAPSHOTS.name(), partition,
                        snapshotted.get(i).sessionId(), values.get(i)));
            }
            producer.commitTransaction();
        } catch (RuntimeException e) {
            try {
                producer.abortTransaction();
            } catch (RuntimeException fatal) {
                // The producer is unusable (fenced, say): the engine's next transaction fails too and restarts it.
                e.addSuppressed(fatal);
                throw e;
            }
            LOG.warn("partition {}: {} snapshots not written, will try again after {} more events of each: {}",
                    partition, snapshotted.size(), every, e.toString());
            for (SessionState state : snapshotted) {
                coverage.couldNotSnapshot(state.sessionId(), state.lastSeq());
            }
            return 0;
        }
        for (SessionState state : snapshotted) {
            coverage.snapshot(state.sessionId(), state.lastSeq());
        }
        LOG.debug("partition {}: wrote {} snapshots, covered below offset {}", partition, snapshotted.size(),
                coveredBelow);
        return snapshotted.size();
    }
}
