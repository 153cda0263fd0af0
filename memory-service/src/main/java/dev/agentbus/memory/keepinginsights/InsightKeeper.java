package dev.agentbus.memory.keepinginsights;

import dev.agentbus.events.insights.InsightCommand;
import dev.agentbus.events.insights.InsightSet;
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
 * Applies insight commands (a person's edits, the distiller's findings) and writes each user's new insight set, in
 * one Kafka transaction with the command offsets, so each command gives exactly one new version. It is the only
 * writer of {@code agentbus.user-insights}; like {@code MemoryKeeper}, the compacted topic it writes is its store.
 */
final class InsightKeeper implements Handler<InsightCommand>, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(InsightKeeper.class);

    private final KafkaSettings kafka;
    private final Clock clock;
    /** The committed sets by user id; touched only on the loop's thread. */
    private final Map<String, InsightSet> sets = new HashMap<>();
    private final TransactionalProcessor<InsightCommand> processor;

    InsightKeeper(KafkaSettings kafka, Clock clock) {
        this.kafka = kafka;
        this.clock = clock;
        this.processor = new TransactionalProcessor<>(
                new ProcessorSettings("insight-keeper", "memory-service", Topics.INSIGHT_COMMANDS.name(),
                        Duration.ofMillis(500), ProcessorSettings.Unreadable.DEAD_LETTER),
                Clients.kafka(kafka.transactionalProducer("insights"),
                        kafka.consumer("agentbus-memory-insights", "insights")),
                InsightKeeper::decode, this);
    }

    void start() {
        processor.start();
    }

    private static InsightCommand decode(ConsumerRecord<String, byte[]> r) {
        return EventCodec.decodeValue(r.value(), InsightCommand.class);
    }

    /** Reload on every assignment: another replica may have written versions while it owned the partition. */
    @Override
    public void onAssigned(Collection<TopicPartition> partitions, LoopContext loop) {
        sets.clear();
        sets.putAll(CompactedTopicView.readToEnd(kafka, Topics.USER_INSIGHTS.name(), "insight-loader",
                bytes -> EventCodec.decodeValue(bytes, InsightSet.class)));
    }

    @Override
    public void handle(List<Decoded<InsightCommand>> records, Outbox out, LoopContext loop) {
        Map<String, InsightSet> written = new HashMap<>();
        for (Decoded<InsightCommand> d : records) {
            InsightCommand command = d.value();
            if (command instanceof InsightCommand.RequestRebuild || command instanceof InsightCommand.RequestRefinement) {
                // The rebuilder's and the refiner's to act on; they answer with commands of their own.
                continue;
            }
            InsightSet current = written.getOrDefault(command.userId(),
                    sets.getOrDefault(command.userId(), InsightSet.empty(command.userId())));
            InsightSet next = InsightBook.apply(current, command, clock.instant());
            written.put(command.userId(), next);
            ProducerRecord<String, byte[]> record = new ProducerRecord<>(Topics.USER_INSIGHTS.name(),
                    command.userId(), EventCodec.encodeValue(next));
            try (Traced span = Tracing.consume("memory-service " + command.getClass().getSimpleName(),
                    d.record().headers()).attribute("agentbus.user_id", command.userId())) {
                TraceHeaders.inject(span.context(), record.headers());
                out.send(record);
            }
            LOG.info("insights of user {} are now version {} ({} insights) after {}", command.userId(),
                    next.version(), next.insights().size(), command.getClass().getSimpleName());
        }
        out.afterCommit(() -> sets.putAll(written));
    }

    @Override
    public void close() {
        processor.close();
    }
}
