package dev.agentbus.eventbus;

import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.common.TopicPartition;

import java.util.HashMap;
import java.util.Map;

/**
 * Consume-decide-produce in one Kafka transaction: the records the work sends and the input offsets it consumed
 * become visible together or not at all, so an input is never lost and never processed twice.
 */
public final class Transactions {
    private Transactions() {
    }

    /** What the work of one transaction does: send records on the producer, and say which offsets it consumed. */
    @FunctionalInterface
    public interface Work {
        void run(Map<TopicPartition, OffsetAndMetadata> consumedOffsets);
    }

    public static void commit(Producer<String, byte[]> producer, Consumer<String, byte[]> consumer, Work work) {
        producer.beginTransaction();
        try {
            Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
            work.run(offsets);
            if (!offsets.isEmpty()) {
                producer.sendOffsetsToTransaction(offsets, consumer.groupMetadata());
            }
            producer.commitTransaction();
        } catch (RuntimeException e) {
            try {
                producer.abortTransaction();
            } catch (RuntimeException abortFailed) {
                e.addSuppressed(abortFailed);
            }
            throw e;
        }
    }
}
