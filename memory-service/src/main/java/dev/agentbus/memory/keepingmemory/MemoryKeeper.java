package dev.agentbus.memory.keepingmemory;

import dev.agentbus.eventbus.CompactedTopicView;
import dev.agentbus.eventbus.KafkaSettings;
import dev.agentbus.eventbus.TraceHeaders;
import dev.agentbus.telemetry.tracing.Traced;
import dev.agentbus.telemetry.tracing.Tracing;
import dev.agentbus.eventbus.processing.Clients;
import dev.agentbus.eventbus.processing.Decoded;
import dev.agentbus.eventbus.processing.Handler;
import dev.agentbus.eventbus.processing.LoopContext;
import dev.agentbus.eventbus.processing.Outbox;
import dev.agentbus.eventbus.processing.ProcessorSettings;
import dev.agentbus.eventbus.processing.TransactionalProcessor;
import dev.agentbus.events.codec.EventCodec;
import dev.agentbus.events.memory.MemoryCommand;
import dev.agentbus.events.memory.MemoryDocument;
import dev.agentbus.events.topics.Topics;
import org.apache.kafka.clients.consumer.ConsumerRecord;
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
 * Applies memory commands and writes the resulting documents; the {@link TransactionalProcessor} commits them in one
 * Kafka transaction with the command offsets, so each command produces exactly one new version. A command that
 * cannot be read is dead-lettered. The current documents come from the compacted topic it writes (read at every
 * assignment, then kept up to date with its own writes): the topic is the store, there is no other.
 */
final class MemoryKeeper implements Handler<MemoryCommand>, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(MemoryKeeper.class);

    private final KafkaSettings kafka;
    private final Clock clock;
    /** The committed documents by user id; touched only on the loop's thread. */
    private final Map<String, MemoryDocument> documents = new HashMap<>();
    private final TransactionalProcessor<MemoryCommand> processor;

    public MemoryKeeper(KafkaSettings kafka, Clock clock) {
        this.kafka = kafka;
        this.clock = clock;
        this.processor = new TransactionalProcessor<>(
                new ProcessorSettings("memory-keeper", "memory-service", Topics.MEMORY_COMMANDS.name(),
                        Duration.ofMillis(500), ProcessorSettings.Unreadable.DEAD_LETTER),
                Clients.kafka(kafka.transactionalProducer("memory"), kafka.consumer("agentbus-memory-service", "memory")),
                MemoryKeeper::decode, this);
    }

    public void start() {
        processor.start();
    }

    /** The command, or null (consumed, not handled) for a well-formed command of a type this code does not know. */
    private static MemoryCommand decode(ConsumerRecord<String, byte[]> r) {
        MemoryCommand command = EventCodec.decodeMemoryCommand(r.value());
        if (command == null) {
            LOG.warn("memory command of unknown type at offset {} skipped", r.offset());
        }
        return command;
    }

    /** Reload on every assignment: another replica may have written versions while it owned the partition. */
    @Override
    public void onAssigned(Collection<TopicPartition> partitions, LoopContext loop) {
        documents.clear();
        documents.putAll(CompactedTopicView.readToEnd(kafka, Topics.USER_MEMORY.name(), "memory-loader",
                bytes -> EventCodec.decodeValue(bytes, MemoryDocument.class)));
    }

    @Override
    public void handle(List<Decoded<MemoryCommand>> records, Outbox out, LoopContext loop) {
        // The batch's new versions, which later commands of the batch build on; committed documents once it commits.
        Map<String, MemoryDocument> written = new HashMap<>();
        for (Decoded<MemoryCommand> d : records) {
            apply(d.record(), d.value(), out, written);
        }
        out.afterCommit(() -> documents.putAll(written));
    }

    private void apply(ConsumerRecord<String, byte[]> r, MemoryCommand command, Outbox out,
                       Map<String, MemoryDocument> written) {
        MemoryDocument current = written.getOrDefault(command.userId(),
                documents.getOrDefault(command.userId(), MemoryDocument.empty(command.userId())));
        MemoryDocument next = MemoryBook.apply(current, command, clock.instant());
        written.put(command.userId(), next);
        ProducerRecord<String, byte[]> record = new ProducerRecord<>(Topics.USER_MEMORY.name(), command.userId(),
                EventCodec.encodeValue(next));
        try (Traced span = Tracing.consume("memory-service " + command.getClass().getSimpleName(), r.headers())
                .attribute("agentbus.user_id", command.userId())) {
            TraceHeaders.inject(span.context(), record.headers());
            out.send(record);
        }
        LOG.info("memory of user {} is now version {} ({} chars)", command.userId(), next.version(),
                next.content().length());
    }

    @Override
    public void close() {
        processor.close();
    }
}
