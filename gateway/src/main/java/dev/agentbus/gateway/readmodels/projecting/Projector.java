package dev.agentbus.gateway.readmodels.projecting;

import dev.agentbus.eventbus.KafkaSettings;
import dev.agentbus.eventbus.Partitions;
import dev.agentbus.eventbus.ServiceLoop;
import dev.agentbus.gateway.errors.ApiException;
import dev.agentbus.gateway.readmodels.ReadModelDatabase;
import io.micronaut.http.HttpStatus;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Keeps the gateway's PostgreSQL read models up to date with {@code agentbus.session-events} (invariant 8).
 *
 * <p>It reads every partition itself (manual assignment, no consumer group, {@code read_committed}), starting from the
 * offsets stored in the database, and applies each polled batch in one transaction with the offsets it moves to
 * ({@link ProjectionBatch}). Consumer offsets are never committed to Kafka: the database is the only place that says
 * how far the read models are, so they can never disagree. Once a second it also compares the stored offsets with
 * its own: a rebuild (here or in another replica) moves them back to 0, and the projector follows.
 *
 * <p>If the database or Kafka fails, the {@link ServiceLoop} starts it again a second later from the stored offsets:
 * the read models lag, the rest of the gateway is not affected.
 */
public final class Projector implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Projector.class);
    private static final Duration CHECK_EVERY = Duration.ofSeconds(1);
    /** Larger than the services' 200: a rebuild reads the whole log, and bigger batches mean fewer transactions. */
    static final int MAX_POLL_RECORDS = 2000;
    /** How long the broker may hold a fetch for more records, at most: the read models' added lag. */
    static final Duration BATCH_WAIT = Duration.ofMillis(100);
    private static final int BATCH_BYTES = 64 * 1024;

    private final ReadModelDatabase database;
    private final KafkaSettings kafka;
    private final ServiceLoop loop;
    private volatile boolean checkSoon;

    public Projector(ReadModelDatabase database, KafkaSettings kafka) {
        this.database = database;
        this.kafka = kafka;
        this.loop = new ServiceLoop("gateway-projector", this::run);
    }

    public Projector start() {
        loop.start();
        return this;
    }

    /**
     * Empties every read model and its offsets in one transaction and starts a new run from offset 0; answers at
     * once, the projectors do the work. See {@link #status()} for progress.
     */
    public ProjectionRuns.Status rebuild() {
        database.requireConfigured();
        Map<Integer, Long> end;
        try {
            end = endOffsets();
        } catch (RuntimeException e) {
            throw new ApiException(HttpStatus.SERVICE_UNAVAILABLE, "Kafka did not say where the log ends: " + e);
        }
        database.query(db -> {
            ProjectionRuns.rebuild(db, end);
            return null;
        });
        checkSoon = true;
        LOG.info("read models: rebuild started; the log has {} offsets to read", end.values().stream()
                .mapToLong(Long::longValue).sum());
        return status();
    }

    public ProjectionRuns.Status status() {
        return database.query(ProjectionRuns::status);
    }

    private void run(ServiceLoop loop) {
        database.migrate();
        Map<String, Object> config = kafka.consumer(null, "gateway-projector");
        config.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, MAX_POLL_RECORDS);
        // Each polled batch is one PostgreSQL transaction. Polled as soon as a record arrives, a busy node made one
        // per step of every session (a tenth of the node's CPU in the step benchmark); waiting up to BATCH_WAIT for
        // more makes them fewer and larger, and read models were never up to the millisecond.
        config.put(ConsumerConfig.FETCH_MIN_BYTES_CONFIG, BATCH_BYTES);
        config.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, (int) BATCH_WAIT.toMillis());
        try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(config)) {
            loop.wakeOnClose(consumer);
            List<TopicPartition> partitions = Partitions.assignAll(consumer, ProjectionOffsets.TOPIC, true);
            if (partitions.isEmpty()) {
                // The gateway creates the topics at start-up, maybe a moment after this; the loop tries again.
                throw new IllegalStateException("read models: " + ProjectionOffsets.TOPIC + " does not exist yet");
            }
            Map<Integer, Long> expected = database.transaction(ProjectionOffsets::read);
            seek(consumer, partitions, null, expected);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
            database.transaction(db -> {
                ProjectionRuns.startIfNone(db, byPartition(end));
                return null;
            });
            LOG.info("read models: projecting {} from {}", ProjectionOffsets.TOPIC, expected);
            long nextCheck = 0;
            while (loop.running()) {
                ConsumerRecords<String, byte[]> polled = consumer.poll(Duration.ofMillis(200));
                if (!polled.isEmpty()) {
                    expected = apply(consumer, partitions, polled, expected);
                }
                if (checkSoon || System.nanoTime() >= nextCheck) {
                    checkSoon = false;
                    expected = check(consumer, partitions, expected);
                    nextCheck = System.nanoTime() + CHECK_EVERY.toNanos();
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException("read models: PostgreSQL failed: " + e.getMessage(), e);
        }
    }

    private Map<Integer, Long> apply(KafkaConsumer<String, byte[]> consumer, List<TopicPartition> partitions,
                                     ConsumerRecords<String, byte[]> polled, Map<Integer, Long> expected)
            throws SQLException {
        List<ConsumerRecord<String, byte[]>> records = new ArrayList<>(polled.count());
        polled.forEach(records::add);
        ProjectionBatch.Outcome outcome = database.transaction(db -> ProjectionBatch.apply(db, records, expected));
        if (outcome.rewound()) {
            // Nothing of the batch was applied, so every partition goes back to its stored offset, not only the
            // ones that moved.
            LOG.info("read models: offsets went back (a rebuild); reading again from {}", outcome.stored());
            seek(consumer, partitions, null, outcome.stored());
        }
        return outcome.stored();
    }

    /**
     * Follows changes of the stored offsets that no batch of ours made (a rebuild, another replica), and notes when
     * the current run has read as far as the log reached when it started.
     */
    private Map<Integer, Long> check(KafkaConsumer<String, byte[]> consumer, List<TopicPartition> partitions,
                                     Map<Integer, Long> expected) throws SQLException {
        // The run first, then the offsets: a rebuild committed in between then shows in the offsets, so this
        // projector seeks back before it could take its old position for the new run's progress.
        var run = database.transaction(ProjectionRuns::latest);
        Map<Integer, Long> stored = database.transaction(ProjectionOffsets::read);
        seek(consumer, partitions, expected, stored);
        if (run.isPresent() && run.get().caughtUpAt() == null && reached(consumer, partitions,
                run.get().targetOffsets())) {
            database.transaction(db -> {
                ProjectionRuns.markCaughtUp(db, run.get().id());
                return null;
            });
            LOG.info("read models: run {} ({}) caught up with the log", run.get().id(), run.get().reason());
        }
        return stored;
    }

    /**
     * Moves to its stored offset every partition whose stored offset differs from what we expected, or every
     * partition when there is no expectation ({@code null}: at start, and after a batch that was not applied).
     * A partition without a stored offset is at 0.
     */
    private static void seek(KafkaConsumer<String, byte[]> consumer, List<TopicPartition> partitions,
                             Map<Integer, Long> expected, Map<Integer, Long> stored) {
        for (TopicPartition p : partitions) {
            long want = stored.getOrDefault(p.partition(), 0L);
            if (expected == null || want != expected.getOrDefault(p.partition(), 0L)) {
                consumer.seek(p, want);
            }
        }
    }

    private static boolean reached(KafkaConsumer<String, byte[]> consumer, List<TopicPartition> partitions,
                                   Map<Integer, Long> target) {
        for (TopicPartition p : partitions) {
            if (consumer.position(p) < target.getOrDefault(p.partition(), 0L)) {
                return false;
            }
        }
        return true;
    }

    /** The log's end (for read_committed: the last stable offset) of every partition, from a short-lived consumer. */
    private Map<Integer, Long> endOffsets() {
        try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(kafka.consumer(null, "gateway-rebuild"))) {
            List<TopicPartition> partitions = consumer.partitionsFor(ProjectionOffsets.TOPIC, Duration.ofSeconds(10))
                    .stream().map(p -> new TopicPartition(p.topic(), p.partition())).toList();
            return byPartition(consumer.endOffsets(partitions, Duration.ofSeconds(10)));
        }
    }

    private static Map<Integer, Long> byPartition(Map<TopicPartition, Long> offsets) {
        Map<Integer, Long> out = new HashMap<>();
        offsets.forEach((p, o) -> out.put(p.partition(), o));
        return out;
    }

    @Override
    public void close() {
        loop.close();
    }
}
