package dev.agentbus.eventbus.processing;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

import java.util.HashMap;
import java.util.Map;

/**
 * The offsets to commit for the records of one poll: per partition, one past the last record consumed (Kafka's
 * committed offset is the next record to read). Every polled record counts, also one that was dead-lettered or
 * skipped, so the group never reads it again.
 */
final class ConsumedOffsets {
    private final Map<TopicPartition, OffsetAndMetadata> next = new HashMap<>();

    void consumed(ConsumerRecord<?, ?> record) {
        TopicPartition partition = new TopicPartition(record.topic(), record.partition());
        OffsetAndMetadata past = new OffsetAndMetadata(record.offset() + 1);
        next.merge(partition, past, (was, now) -> now.offset() > was.offset() ? now : was);
    }

    boolean isEmpty() {
        return next.isEmpty();
    }

    Map<TopicPartition, OffsetAndMetadata> toCommit() {
        return Map.copyOf(next);
    }
}
