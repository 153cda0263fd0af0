package dev.agentbus.gateway.readmodels.searching.embedding;

import dev.agentbus.eventbus.KafkaSettings;
import dev.agentbus.eventbus.Partitions;
import dev.agentbus.eventbus.ServiceLoop;
import dev.agentbus.events.codec.EventCodec;
import dev.agentbus.events.codec.MalformedRecordException;
import dev.agentbus.gateway.readmodels.ReadModelDatabase;
import dev.agentbus.gateway.readmodels.searching.embedding.EmbeddingClient.EmbeddingException;
import dev.agentbus.gateway.readmodels.searching.embedding.MessageVectors.Key;
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
import java.util.Set;

/**
 * Embeds every searchable message in the background, so semantic search has vectors to compare: a projector of
 * {@code agentbus.session-events} of its own, beside the read-model projector, because it waits on the model server
 * and must never hold up the sessions list or full-text search.
 *
 * <p>Like the {@code Projector} it assigns itself every partition (no consumer group), keeps its offsets in
 * PostgreSQL ({@code embedding_offsets}, per model) and writes a batch's vectors and offsets in one transaction, so a
 * crash neither loses a message nor stores one twice. Before asking the model server it looks up which messages of the
 * batch have a vector already, so reading the log again (after a crash, or in a second replica) embeds nothing twice.
 * A deleted session's vectors are removed when its {@code session.deleted.v1} is read, and its id is kept, so that
 * reading the log again never embeds its messages anew.
 *
 * <p>When the model server cannot answer, the batch is tried again after a pause that doubles up to a minute; the
 * offsets stay where they were, so nothing is skipped. A text the server refuses (HTTP 4xx) even on its own is
 * logged and left without a vector: full-text search still finds it.
 */
final class MessageEmbedder implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(MessageEmbedder.class);
    private static final int MAX_POLL_RECORDS = 1000;
    private static final Duration FIRST_PAUSE = Duration.ofSeconds(1);
    private static final Duration LONGEST_PAUSE = Duration.ofMinutes(1);

    private final ReadModelDatabase database;
    private final KafkaSettings kafka;
    private final EmbeddingClient client;
    private final SearchSettings settings;
    private final ServiceLoop loop;

    public MessageEmbedder(ReadModelDatabase database, KafkaSettings kafka, EmbeddingClient client,
                           SearchSettings settings) {
        this.database = database;
        this.kafka = kafka;
        this.client = client;
        this.settings = settings;
        this.loop = new ServiceLoop("gateway-embedder", this::run);
    }

    public MessageEmbedder start() {
        loop.start();
        return this;
    }

    private void run(ServiceLoop loop) {
        database.ensureMigrated();
        String model = client.model();
        Map<String, Object> config = kafka.consumer(null, "gateway-embedder");
        config.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, MAX_POLL_RECORDS);
        try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(config)) {
            loop.wakeOnClose(consumer);
            List<TopicPartition> partitions = Partitions.assignAll(consumer, EmbeddingOffsets.TOPIC, true);
            if (partitions.isEmpty()) {
                throw new IllegalStateException("embedder: " + EmbeddingOffsets.TOPIC + " does not exist yet");
            }
            Map<Integer, Long> expected = database.transaction(db -> EmbeddingOffsets.read(db, model));
            seek(consumer, partitions, expected);
            LOG.info("embedder: embedding messages with '{}' from {}", model, expected);
            Duration pause = FIRST_PAUSE;
            while (loop.running()) {
                ConsumerRecords<String, byte[]> polled = consumer.poll(Duration.ofMillis(500));
                if (polled.isEmpty()) {
                    continue;
                }
                List<ConsumerRecord<String, byte[]>> records = new ArrayList<>(polled.count());
                polled.forEach(records::add);
                Map<Integer, Long> read = new HashMap<>(expected);
                records.forEach(r -> read.merge(r.partition(), r.offset() + 1, Math::max));
                try {
                    expected = apply(records, expected, model);
                    pause = FIRST_PAUSE;
                } catch (EmbeddingException e) {
                    LOG.warn("embedder: {}; trying again in {} s", e.getMessage(), pause.toSeconds());
                    sleep(pause);
                    pause = pause.multipliedBy(2).compareTo(LONGEST_PAUSE) > 0 ? LONGEST_PAUSE
                            : pause.multipliedBy(2);
                }
                if (!expected.equals(read)) {
                    // A failed batch, or another replica moved the offsets: go on from what is stored.
                    seek(consumer, partitions, expected);
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException("embedder: PostgreSQL failed: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("embedder: interrupted", e);
        }
    }

    /** Embeds one polled batch and stores it; answers the offsets now stored. */
    private Map<Integer, Long> apply(List<ConsumerRecord<String, byte[]>> records, Map<Integer, Long> expected,
                                     String model) throws SQLException, EmbeddingException, InterruptedException {
        Map<Integer, Long> before = database.transaction(db -> EmbeddingOffsets.read(db, model));
        if (!before.equals(expected)) {
            // Checked before asking the model server too, not only when storing: a batch read from offsets that
            // are no longer stored would be embedded only to be thrown away, and embedded again after the seek.
            return before;
        }
        List<EmbeddingPlan.Positioned> events = new ArrayList<>();
        Map<Integer, Long> moved = new HashMap<>();
        for (ConsumerRecord<String, byte[]> r : records) {
            moved.merge(r.partition(), r.offset() + 1, Math::max);
            try {
                if (r.value() == null) {
                    throw new MalformedRecordException("the record has no value");
                }
                events.add(new EmbeddingPlan.Positioned(EventCodec.decodeEvent(r.value()), r.partition(),
                        r.offset()));
            } catch (MalformedRecordException e) {
                LOG.warn("embedder: skipped unreadable record {}-{}@{}: {}", r.topic(), r.partition(), r.offset(),
                        e.getMessage());
            }
        }
        EmbeddingPlan plan = EmbeddingPlan.of(events, settings.maxEmbeddedChars());
        List<Key> keys = plan.messages().stream().map(EmbeddingPlan.Message::row)
                .map(r -> new Key(r.sessionId(), r.seq())).toList();
        Set<Key> done = database.transaction(db -> MessageVectors.existing(db, model, keys));
        Set<String> gone = database.transaction(db -> MessageVectors.deletedAmong(db, keys.stream()
                .map(Key::sessionId).collect(java.util.stream.Collectors.toSet())));
        List<EmbeddingPlan.Message> todo = plan.messages().stream()
                .filter(m -> !done.contains(new Key(m.row().sessionId(), m.row().seq())))
                .filter(m -> !gone.contains(m.row().sessionId())).toList();
        Map<EmbeddingPlan.Message, float[]> vectors = embed(todo);

        return database.transaction(db -> {
            EmbeddingOffsets.lock(db);
            Map<Integer, Long> stored = EmbeddingOffsets.read(db, model);
            if (!stored.equals(expected)) {
                // Another replica wrote some of these (or a model's offsets were reset): write nothing, and the
                // caller seeks to what is stored. The vectors asked for are lost work, never wrong data.
                return stored;
            }
            List<MessageVectors.Stored> rows = new ArrayList<>();
            vectors.forEach((m, v) -> rows.add(new MessageVectors.Stored(
                    new Key(m.row().sessionId(), m.row().seq()), m.row().userId(), v)));
            MessageVectors.insert(db, model, rows);
            MessageVectors.deleteSessions(db, plan.deleted());
            Map<Integer, Long> now = new HashMap<>(stored);
            now.putAll(moved);
            EmbeddingOffsets.write(db, model, moved);
            return now;
        });
    }

    /** Asks the model server in chunks of the batch size; a chunk it refuses is asked one text at a time. */
    private Map<EmbeddingPlan.Message, float[]> embed(List<EmbeddingPlan.Message> todo)
            throws EmbeddingException, InterruptedException {
        Map<EmbeddingPlan.Message, float[]> out = new HashMap<>();
        int size = settings.embeddingBatch();
        for (int from = 0; from < todo.size(); from += size) {
            List<EmbeddingPlan.Message> chunk = todo.subList(from, Math.min(todo.size(), from + size));
            try {
                List<float[]> got = client.embed(chunk.stream().map(EmbeddingPlan.Message::input).toList());
                for (int i = 0; i < chunk.size(); i++) {
                    out.put(chunk.get(i), got.get(i));
                }
            } catch (EmbeddingException e) {
                if (!e.rejected()) {
                    throw e;
                }
                for (EmbeddingPlan.Message m : chunk) {
                    try {
                        out.put(m, client.embed(List.of(m.input())).getFirst());
                    } catch (EmbeddingException alone) {
                        if (!alone.rejected()) {
                            throw alone;
                        }
                        LOG.warn("embedder: message {}#{} is not embedded, the model server refused it: {}",
                                m.row().sessionId(), m.row().seq(), alone.getMessage());
                    }
                }
            }
        }
        return out;
    }

    private static void seek(KafkaConsumer<String, byte[]> consumer, List<TopicPartition> partitions,
                             Map<Integer, Long> stored) {
        for (TopicPartition p : partitions) {
            consumer.seek(p, stored.getOrDefault(p.partition(), 0L));
        }
    }

    private void sleep(Duration pause) throws InterruptedException {
        long until = System.nanoTime() + pause.toNanos();
        while (loop.running() && System.nanoTime() < until) {
            Thread.sleep(Math.min(200, Math.max(1, (until - System.nanoTime()) / 1_000_000)));
        }
    }

    @Override
    public void close() {
        loop.close();
        client.close();
    }
}
