package dev.agentbus.eventbus.processing;

import org.apache.kafka.common.TopicPartition;

import java.util.Collection;
import java.util.List;

/**
 * A service's part of a {@link TransactionalProcessor}: what the records mean. The processor does the Kafka part
 * (clients, polling, decoding, dead letters, offsets, the transaction, restarts). Every method runs on the loop's
 * thread, so a handler's state needs no locks unless other threads read it.
 *
 * <p>If any method throws, the run ends: the open transaction is aborted, the clients are closed, and the loop
 * starts again with fresh clients a second later, beginning with {@link #onStart()}. In-memory state that ran ahead
 * of the log is forgotten there and rebuilt from the log on the next assignment.
 */
public interface Handler<T> {
    /** A new run of the loop is starting, with no partitions yet: forget what the last run knew. */
    default void onStart() {
    }

    /**
     * The records of one poll, decoded, in partition order (records that could not be decoded have already been
     * dead-lettered or skipped). Whatever is sent to {@code out} is committed in one transaction with the offsets of
     * every record of the poll.
     */
    void handle(List<Decoded<T>> records, Outbox out, LoopContext loop);

    /**
     * Called once every iteration, after {@link #handle} (also when the poll returned nothing, timed out or was cut
     * short by {@link TransactionalProcessor#wake()}), in the same transaction: for work that is not triggered by a
     * record but must be written from the loop's thread, such as the results of tool calls that finished meanwhile.
     */
    default void onIteration(Outbox out, LoopContext loop) {
    }

    /** The consumer was given these partitions; they are polled from their committed offsets once this returns. */
    default void onAssigned(Collection<TopicPartition> partitions, LoopContext loop) {
    }

    /**
     * These partitions are being taken away (or lost); the batch before has been committed. What the handler still
     * has to write for them must be written here, with {@link LoopContext#inTransaction}: the next owner starts as
     * soon as this returns.
     */
    default void onRevoked(Collection<TopicPartition> partitions, LoopContext loop) {
    }

    /** The processor is closing: last writes before the clients close, with {@link LoopContext#inTransaction}. */
    default void onStop(LoopContext loop) {
    }
}
