package dev.agentbus.memory.keepingmemory;

import dev.agentbus.eventbus.CompactedTopicView;
import dev.agentbus.eventbus.DeadLetters;
import dev.agentbus.eventbus.KafkaSettings;
import dev.agentbus.eventbus.ServiceLoop;
import dev.agentbus.eventbus.Transactions;
import dev.agentbus.eventbus.TraceHeaders;
import dev.agentbus.events.codec.EventCodec;
import dev.agentbus.events.codec.MalformedRecordException;
import dev.agentbus.events.memory.MemoryCommand;
import dev.agentbus.events.memory.MemoryDocument;
import dev.agentbus.events.topics.Topics;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Applies memory commands and writes the resulting documents, in one Kafka transaction with the command offsets,
 * so each command produces exactly one new version. The current documents come from the compacted topic it writes
 * (read at start, then kept up to date with its own writes): the topic is the store, there is no other.
 */
public final class MemoryKeeper implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(MemoryKeeper.class);

    private final KafkaSettings kafka;
    private final Clock clock;
    private final Map<String, MemoryDocument> documents = new HashMap<>();
    private final ServiceLoop loop;

    public MemoryKeeper(KafkaSettings kafka, Clock clock) {
        this.kafka = kafka;
        this.clock = clock;
        this.loop = new ServiceLoop("memory-keeper", this::run);
    }

    public void start() {
        loop.start();
    }

    private void run(ServiceLoop loop) {
        try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(kafka.transactionalProducer("memory"));
             KafkaConsumer<String, byte[]> c = new KafkaConsumer<>(kafka.consumer("agentbus-memory-service", "memory"))) {
            producer.initTransactions();
            loop.wakeOnClose(c);
            // Reload on every assignment: another replica may have written versions while it owned the partition.
            c.subscribe(List.of(Topics.MEMORY_COMMANDS.name()), new ConsumerRebalanceListener() {
                @Override
                public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
                    loadDocuments();
                }

                @Override
                public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
                }
            });
            while (loop.running()) {
                ConsumerRecords<String, byte[]> records = c.poll(Duration.ofMillis(500));
                if (records.isEmpty()) {
                    continue;
                }
                Map<String, MemoryDocument> written = new HashMap<>();
                Transactions.commit(producer, c, offsets -> {
                    for (ConsumerRecord<String, byte[]> r : records) {
                        offsets.put(new TopicPartition(r.topic(), r.partition()), new OffsetAndMetadata(r.offset() + 1));
                        apply(producer, r, written);
                    }
                });
                documents.putAll(written);
            }
        }
    }

    private void apply(KafkaProducer<String, byte[]> producer, ConsumerRecord<String, byte[]> r,
                       Map<String, MemoryDocument> written) {
        MemoryCommand command;
        try {
            command = EventCodec.decodeMemoryCommand(r.value());
        } catch (MalformedRecordException e) {
            DeadLetters.send(producer, r, e.getMessage(), "memory-service");
            return;
        }
        if (command == null) {
            LOG.warn("memory command of unknown type at offset {} skipped", r.offset());
            return;
        }
        MemoryDocument current = written.getOrDefault(command.userId(),
                documents.getOrDefault(command.userId(), MemoryDocument.empty(command.userId())));
        MemoryDocument next = MemoryBook.apply(current, command, clock.instant());
        written.put(command.userId(), next);
        ProducerRecord<String, byte[]> out = new ProducerRecord<>(Topics.USER_MEMORY.name(), command.userId(),
                EventCodec.encodeValue(next));
        TraceHeaders.inject(TraceHeaders.continueFrom(r.headers()), out.headers());
        producer.send(out);
        LOG.info("memory of user {} is now version {} ({} chars)", command.userId(), next.version(),
                next.content().length());
    }

    /** The documents as last committed, ours or a predecessor's: the compacted topic is the store. */
    private void loadDocuments() {
        documents.clear();
        documents.putAll(CompactedTopicView.readToEnd(kafka, Topics.USER_MEMORY.name(), "memory-loader",
                bytes -> EventCodec.decodeValue(bytes, MemoryDocument.class)));
    }

    @Override
    public void close() {
        loop.close();
    }
}
