package dev.agentbus.eventbus.processing;

import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.common.TopicPartition;

import java.util.Collection;
import java.util.Map;
import java.util.function.Consumer;

/**
 * What a handler may ask of the loop besides its batch: where the consumer is, and a transaction of its own. Valid
 * for one run of the loop (one pair of clients), on the loop's thread only.
 */
public interface LoopContext {
    /** The offset of the next record the consumer will hand out from this partition. */
    long position(TopicPartition partition);

    /** Where the partitions end now (for {@code read_committed}: the last stable offset). */
    Map<TopicPartition, Long> endOffsets(Collection<TopicPartition> partitions);

    /**
     * Sends what {@code work} sends in a transaction of its own, commits it, then runs its after-commit actions. For
     * writes that are not caused by a polled record and cannot wait for the next batch: a worker reporting the calls
     * of partitions it is giving away, from inside the rebalance. Not while a batch is being handled (its
     * transaction is open): send to the batch's {@link Outbox} then.
     *
     * @throws IllegalStateException when called while a batch is being handled
     */
    void inTransaction(Consumer<Outbox> work);

    /**
     * The transactional producer itself, for a writer that runs its own transactions and recovers from their
     * failures itself (the orchestrator's snapshots, written after the batch they describe). Only from an
     * after-commit action or a rebalance callback, never while a batch is being handled.
     */
    Producer<String, byte[]> producer();
}
