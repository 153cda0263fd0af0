package dev.agentbus.eventbus.processing;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;

import java.util.concurrent.Future;

/**
 * What one transaction will write. Everything sent here becomes visible together with the offsets of the records
 * it was caused by, or not at all; the after-commit actions run only once that commit has succeeded.
 */
public interface Outbox {
    /**
     * Sends a record in the transaction (begun on the first send). Its metadata is known once the transaction has
     * committed.
     */
    Future<RecordMetadata> send(ProducerRecord<String, byte[]> record);

    /** Parks a consumed record on {@code agentbus.dead-letter} with the reason, in the same transaction. */
    void deadLetter(ConsumerRecord<String, byte[]> record, String reason);

    /**
     * Runs {@code action} after the commit, on the loop's thread, in the order registered: effects that must never
     * happen for something that was not recorded (start a model call, run a tool). If the commit fails, it never
     * runs.
     */
    void afterCommit(Runnable action);
}
