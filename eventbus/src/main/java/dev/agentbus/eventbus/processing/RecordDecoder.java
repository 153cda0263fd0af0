package dev.agentbus.eventbus.processing;

import dev.agentbus.events.codec.MalformedRecordException;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * Reads one consumed record into what the handler works with. A record it cannot read at all throws
 * {@link MalformedRecordException} with the reason; the processor then dead-letters or skips it, as its
 * {@link ProcessorSettings#unreadable()} says, and moves on. A decoder may return null for a record that is
 * well-formed but means nothing to this handler (a type this code does not know): it is consumed and not handed over.
 */
@FunctionalInterface
public interface RecordDecoder<T> {
    T decode(ConsumerRecord<String, byte[]> record) throws MalformedRecordException;
}
