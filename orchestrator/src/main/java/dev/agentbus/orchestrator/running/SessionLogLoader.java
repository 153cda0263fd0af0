package dev.agentbus.orchestrator.running;

import dev.agentbus.eventbus.KafkaSettings;
import dev.agentbus.eventbus.Partitions;
import dev.agentbus.events.codec.EventCodec;
import dev.agentbus.events.codec.MalformedRecordException;
import dev.agentbus.events.session.EventEnvelope;
import dev.agentbus.events.state.SessionFold;
import dev.agentbus.events.state.SessionSnapshot;
import dev.agentbus.events.state.SessionState;
import dev.agentbus.events.topics.Topics;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Predicate;

/**
 * Rebuilds the state of every session in one partition: how an orchestrator takes over a partition, after a crash or
 * a rebalance. The log is the only truth; snapshots only shorten the read.
 *
 * <p>With snapshots it reads the partition's latest snapshots, then the events from the partition's watermark
 * ({@link SessionSnapshot#coveredBelow()}) on, folding only those after each session's snapshot. A snapshot that
 * cannot be used — unreadable, another schema version, beyond the end of the log, not matching the event at its
 * offset, or followed by an event whose seq does not come next — is ignored and its session folded from offset 0,
 * in a second pass over the partition. If fewer snapshots are found than the newest one says the partition had, one
 * went missing, and nothing says where its session's events are: then the partition is read from offset 0 (sessions
 * with a usable snapshot still skip the events it covers). None of this ever fails a takeover.
 */
public final class SessionLogLoader {
    private static final Logger LOG = LoggerFactory.getLogger(SessionLogLoader.class);

    /** The partition as rebuilt, what its snapshots cover (for the engine to carry on), and how it went. */
    public record LoadedPartition(int partition, Map<String, SessionState> states, SnapshotCoverage coverage,
                                  Stats stats) {
    }

    /**
     * @param snapshotsUsed    sessions started from their snapshot
     * @param snapshotsIgnored snapshot records that could not be used (their sessions were folded from the log)
     * @param startOffset      where the first pass over the events started
     * @param eventsRead       event records read, in both passes
     * @param eventsFolded     events decoded and folded
     * @param fromStartReason  why the partition was read from offset 0 despite its snapshots' watermark, or null
     */
    public record Stats(int sessions, int snapshotsUsed, int snapshotsIgnored, long startOffset, long eventsRead,
                        long eventsFolded, String fromStartReason, long millis) {
    }

    private final KafkaSettings kafka;
    private final boolean useSnapshots;

    /** @param useSnapshots false folds every partition from offset 0, ignoring the snapshot topic */
    public SessionLogLoader(KafkaSettings kafka, boolean useSnapshots) {
        this.kafka = kafka;
        this.useSnapshots = useSnapshots;
    }

    /**
     * Loads the partitions side by side, each with its own consumer, as a takeover of several partitions does:
     * decoding is the main cost of a rebuild, and it uses every core this way.
     */
    public List<LoadedPartition> loadAll(Collection<Integer> partitions) {
        if (partitions.size() <= 1) {
            return partitions.stream().map(this::load).toList();
        }
        try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<LoadedPartition>> loads = new ArrayList<>();
            for (int p : partitions) {
                loads.add(threads.submit(() -> load(p)));
            }
            List<LoadedPartition> loaded = new ArrayList<>();
            for (Future<LoadedPartition> f : loads) {
                loaded.add(f.get());
            }
            return loaded;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while loading partitions " + partitions, e);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
        }
    }

    public LoadedPartition load(int partition) {
        long started = System.nanoTime();
        TopicPartition events = new TopicPartition(Topics.SESSION_EVENTS.name(), partition);
        TopicPartition snapshotPartition = new TopicPartition(Topics.SESSION_SNAPSHOTS.name(), partition);
        try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(consumerSettings())) {
            boolean withSnapshots = useSnapshots && exists(consumer, snapshotPartition);
            // The previous owner's last transaction may be committed but its marker not yet written.
            Partitions.awaitStable(kafka, withSnapshots ? List.of(events, snapshotPartition) : List.of(events),
                    Duration.ofSeconds(20));
            // With read_committed this is the last stable offset: everything any writer has committed.
            long end = consumer.endOffsets(List.of(events)).get(events);
            Found found = withSnapshots ? readSnapshots(consumer, snapshotPartition, partition, end) : Found.NONE;

            Pass pass = new Pass(partition, found.usable);
            long start = found.fromStartReason == null ? Math.min(found.coveredBelow, end) : 0;
            Set<String> suspects = new HashSet<>(found.unusableKeys);
            if (start == 0) {
                suspects.clear(); // a pass from 0 folds them from their first event anyway
            }
            read(consumer, events, start, end, r -> pass.apply(r, suspects, start));
            long eventsRead = pass.read;
            if (!suspects.isEmpty()) {
                // Some sessions cannot start from their snapshot: fold just those from offset 0.
                Pass full = new Pass(partition, Map.of());
                read(consumer, events, 0, end, r -> suspects.contains(r.key()) && full.apply(r, Set.of(), 0));
                eventsRead += full.read;
                pass.replace(suspects, full);
            }
            pass.finish(end);
            Stats stats = new Stats(pass.states.size(), pass.snapshotsUsed(), found.unusableKeys.size()
                    + pass.rejected, start, eventsRead, pass.folded, found.fromStartReason,
                    (System.nanoTime() - started) / 1_000_000);
            LOG.info("partition {}: {} sessions, {} from snapshots ({} snapshots ignored), read {} events from offset {} "
                            + "and folded {} in {} ms{}", partition, stats.sessions(), stats.snapshotsUsed(),
                    stats.snapshotsIgnored(), stats.eventsRead(), start, stats.eventsFolded(), stats.millis(),
                    stats.fromStartReason() == null ? "" : " (" + stats.fromStartReason() + ")");
            return new LoadedPartition(partition, pass.states, pass.coverage, stats);
        }
    }

    /** The usable latest snapshot per session of the partition, and what the newest one says of the partition. */
    private record Found(Map<String, SessionSnapshot> usable, Set<String> unusableKeys, long coveredBelow,
                         String fromStartReason) {
        static final Found NONE = new Found(Map.of(), Set.of(), 0, null);
    }

    private static Found readSnapshots(KafkaConsumer<String, byte[]> consumer, TopicPartition tp, int partition,
                                       long eventsEnd) {
        // Latest record per key first; only those are decoded (compaction may not have run yet).
        Map<String, ConsumerRecord<String, byte[]>> latest = new HashMap<>();
        long end = consumer.endOffsets(List.of(tp)).get(tp);
        read(consumer, tp, 0, end, r -> {
            if (r.key() != null) {
                if (r.value() == null) {
                    latest.remove(r.key()); // a tombstone: the snapshot was deleted on purpose
                } else {
                    latest.put(r.key(), r);
                }
            }
            return true;
        });
        Map<String, SessionSnapshot> usable = new HashMap<>();
        Set<String> unusable = new HashSet<>();
        SessionSnapshot newest = null;
        long newestOffset = -1;
        for (ConsumerRecord<String, byte[]> r : latest.values()) {
            try {
                SessionSnapshot s = SessionSnapshot.decode(r.key(), r.value());
                if (s.partition() != partition) {
                    throw new SessionSnapshot.UnusableSnapshotException("written for partition " + s.partition());
                }
                if (s.eventOffset() >= eventsEnd) {
                    throw new SessionSnapshot.UnusableSnapshotException("its event offset " + s.eventOffset()
                            + " is beyond the end of the log (" + eventsEnd + ")");
                }
                usable.put(r.key(), s);
                if (r.offset() > newestOffset) {
                    newest = s;
                    newestOffset = r.offset();
                }
            } catch (SessionSnapshot.UnusableSnapshotException e) {
                LOG.warn("snapshot of session {} at {}@{} ignored, the session is folded from the log: {}", r.key(),
                        tp, r.offset(), e.getMessage());
                unusable.add(r.key());
            }
        }
        if (newest == null) {
            return new Found(Map.of(), unusable, 0, null);
        }
        if (latest.size() < newest.snapshotsInPartition()) {
            String why = "found " + latest.size() + " snapshots where the newest says there were "
                    + newest.snapshotsInPartition() + ": one is missing, so the partition is read from offset 0";
            LOG.warn("partition {}: {}", partition, why);
            return new Found(usable, Set.of(), 0, why);
        }
        if (newest.coveredBelow() > eventsEnd) {
            String why = "the snapshots cover offsets up to " + newest.coveredBelow() + " but the log ends at "
                    + eventsEnd;
            LOG.warn("partition {}: {}", partition, why);
            return new Found(usable, Set.of(), 0, why);
        }
        return new Found(usable, unusable, newest.coveredBelow(), null);
    }

    /** One pass over the events: folds each session onto its snapshot (or from nothing) and checks the seq chain. */
    private static final class Pass {
        final Map<String, SessionState> states = new HashMap<>();
        final SnapshotCoverage coverage;
        final Map<String, SessionSnapshot> snapshots;
        long read;
        long folded;
        int rejected;

        Pass(int partition, Map<String, SessionSnapshot> snapshots) {
            this.coverage = new SnapshotCoverage(partition);
            this.snapshots = new HashMap<>(snapshots);
        }

        /** Folds the record unless it is covered by its session's snapshot; returns true (keep reading). */
        boolean apply(ConsumerRecord<String, byte[]> r, Set<String> suspects, long start) {
            read++;
            String key = r.key();
            if (suspects.contains(key)) {
                return true; // folded in the second pass
            }
            SessionSnapshot snapshot = snapshots.get(key);
            if (snapshot != null && r.offset() < snapshot.eventOffset()) {
                return true; // covered: not even decoded
            }
            EventEnvelope e;
            try {
                e = EventCodec.decodeEvent(r.value());
            } catch (MalformedRecordException ex) {
                LOG.warn("unreadable event at {}@{} skipped: {}", r.partition(), r.offset(), ex.getMessage());
                if (snapshot != null && r.offset() == snapshot.eventOffset()) {
                    reject(key, "the event at its offset is unreadable", suspects);
                }
                return true;
            }
            if (snapshot != null && r.offset() == snapshot.eventOffset()) {
                if (!e.sessionId().equals(key) || e.seq() != snapshot.seq()) {
                    reject(key, "the event at its offset is seq " + e.seq() + " of " + e.sessionId(), suspects);
                }
                return true; // the snapshot's own last event: already in its state
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
                return true;
            }
            states.put(e.sessionId(), SessionFold.evolve(state, e));
            coverage.event(e.sessionId(), e.seq(), r.offset());
            folded++;
            return true;
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

    /**
     * The loader reads up to an end it knows, so it never wants the broker to hold a fetch open waiting for new
     * records: with the default 500 ms, the fetch left open on one partition delays the first fetch after the loader
     * moves to the next (from snapshots to events, or back to offset 0) by that long. Large fetches and polls,
     * since it reads whole partitions.
     */
    private Map<String, Object> consumerSettings() {
        Map<String, Object> settings = new HashMap<>(kafka.consumer(null, "orchestrator-loader"));
        settings.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 10);
        settings.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 5_000);
        settings.put(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, 8 * 1024 * 1024);
        return settings;
    }

    private static boolean exists(KafkaConsumer<String, byte[]> consumer, TopicPartition tp) {
        var infos = consumer.partitionsFor(tp.topic(), Duration.ofSeconds(30));
        return infos != null && infos.stream().anyMatch(i -> i.partition() == tp.partition());
    }

    /** Reads [from, to) of the partition, handing each record to the handler. */
    private static void read(KafkaConsumer<String, byte[]> consumer, TopicPartition tp, long from, long to,
                             Predicate<ConsumerRecord<String, byte[]>> handler) {
        consumer.assign(List.of(tp));
        consumer.seek(tp, from);
        while (consumer.position(tp) < to) {
            for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                if (r.offset() >= to) {
                    return;
                }
                handler.test(r);
            }
        }
    }
}
