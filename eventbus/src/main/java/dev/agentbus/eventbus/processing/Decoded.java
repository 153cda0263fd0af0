package dev.agentbus.eventbus.processing;

import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * A consumed record and what the decoder read from it. The record stays at hand for its partition, its headers
 * (the trace to continue) and for dead-lettering it when the handler cannot use it.
 */
public record Decoded<T>(ConsumerRecord<String, byte[]> record, T value) {
}
