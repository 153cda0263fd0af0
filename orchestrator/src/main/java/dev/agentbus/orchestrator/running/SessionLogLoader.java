package dev.agentbus.orchestrator.running;

import dev.agentbus.eventbus.KafkaSettings;
import dev.agentbus.eventbus.Partitions;
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
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;

/**
 * Rebuilds the state of every session in one partition: how an orchestrator takes over a partition, after a crash or
 * a rebalance. The log is the only truth; snapshots only shorten the read.
 *
 * <p>This class does the reading from Kafka: it waits for the partition to be stable, reads its snapshot records
 * into a {@link SnapshotSelection} (which snapshot each session starts from, and the partition's watermark), then
 * hands the events to {@link PartitionFold} (the fold, from the watermark on, and from offset 0 for the sessions
 * whose snapshot turned out unusable). None of this ever fails a takeover: a bad snapshot only costs time.
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
            SnapshotSelection.Choice choice = SnapshotSelection.Choice.NONE;
            if (withSnapshots) {
                SnapshotSelection selection = new SnapshotSelection(partition);
                long snapshotsEnd = consumer.endOffsets(List.of(snapshotPartition)).get(snapshotPartition);
                read(consumer, snapshotPartition, 0, snapshotsEnd, selection::offer);
                choice = selection.choose(end);
            }
            PartitionFold.Folded folded = PartitionFold.fold(partition, choice, end,
                    (from, to, each) -> read(consumer, events, from, to, each));
            Stats stats = new Stats(folded.states().size(), folded.snapshotsUsed(), folded.snapshotsIgnored(),
                    folded.startOffset(), folded.eventsRead(), folded.eventsFolded(), choice.fromStartReason(),
                    (System.nanoTime() - started) / 1_000_000);
            LOG.info("partition {}: {} sessions, {} from snapshots ({} snapshots ignored), read {} events from offset {} "
                            + "and folded {} in {} ms{}", partition, stats.sessions(), stats.snapshotsUsed(),
                    stats.snapshotsIgnored(), stats.eventsRead(), stats.startOffset(), stats.eventsFolded(),
                    stats.millis(), stats.fromStartReason() == null ? "" : " (" + stats.fromStartReason() + ")");
            return new LoadedPartition(partition, folded.states(), folded.coverage(), stats);
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

    /** Reads [from, to) of the partition, handing each record over. */
    private static void read(KafkaConsumer<String, byte[]> consumer, TopicPartition tp, long from, long to,
                             Consumer<StoredRecord> each) {
        consumer.assign(List.of(tp));
        consumer.seek(tp, from);
        while (consumer.position(tp) < to) {
            for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                if (r.offset() >= to) {
                    return;
                }
                each.accept(new StoredRecord(r.key(), r.offset(), r.value()));
            }
        }
    }
}
