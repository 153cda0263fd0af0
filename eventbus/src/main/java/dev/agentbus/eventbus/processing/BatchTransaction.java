package dev.agentbus.eventbus.processing;

import dev.agentbus.eventbus.DeadLetters;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Future;
import java.util.function.Supplier;

/**
 * One transaction of the processor's producer, begun only when something is sent, and the actions to run once it
 * has committed. A batch that neither sends nor consumes anything costs no transaction at all.
 */
final class BatchTransaction implements Outbox {
    private final Producer<String, byte[]> producer;
    private final String service;
    private final List<Runnable> afterCommit = new ArrayList<>();
    private boolean begun;

    BatchTransaction(Producer<String, byte[]> producer, String service) {
        this.producer = producer;
        this.service = service;
    }

    @Override
    public Future<RecordMetadata> send(ProducerRecord<String, byte[]> record) {
        begin();
        return producer.send(record);
    }

    @Override
    public void deadLetter(ConsumerRecord<String, byte[]> record, String reason) {
        send(DeadLetters.record(record, reason, service));
    }

    @Override
    public void afterCommit(Runnable action) {
        afterCommit.add(action);
    }

    /**
     * Commits what was sent together with the consumed offsets, then runs the after-commit actions. When nothing was
     * sent and nothing consumed there is no transaction, and the actions run at once (they depend on nothing new).
     * On failure the transaction is aborted and the exception thrown: none of it happened, and no action runs.
     */
    void commit(Map<TopicPartition, OffsetAndMetadata> offsets, Supplier<ConsumerGroupMetadata> group) {
        if (begun || !offsets.isEmpty()) {
            try {
                begin();
                if (!offsets.isEmpty()) {
                    producer.sendOffsetsToTransaction(offsets, group.get());
                }
                producer.commitTransaction();
            } catch (RuntimeException e) {
                abort(e);
                throw e;
            }
        }
        afterCommit.forEach(Runnable::run);
    }

    /** Aborts the transaction if one was begun; a failure to abort is added to {@code cause}. */
    void abort(RuntimeException cause) {
        if (!begun) {
            return;
        }
        begun = false;
        try {
            producer.abortTransaction();
        } catch (RuntimeException abortFailed) {
            cause.addSuppressed(abortFailed);
        }
    }

    /** Whether something was sent, so a transaction is open. */
    boolean begun() {
        return begun;
    }

    private void begin() {
        if (!begun) {
            producer.beginTransaction();
            begun = true;
        }
    }
}
