package dev.agentbus.eventbus;

import dev.agentbus.events.topics.Topics;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.charset.StandardCharsets;

/**
 * A record that cannot be read at all goes to {@code agentbus.dead-letter}, unchanged, with why and where it came
 * from in headers, so a consumer never stalls on it and a person can inspect it later (invariant 6). The
 * {@link dev.agentbus.eventbus.processing.TransactionalProcessor} sends it in the transaction that moves the
 * consumer past it.
 */
public final class DeadLetters {
    private static final Logger LOG = LoggerFactory.getLogger(DeadLetters.class);

    public static final String REASON = "agentbus.dlt.reason";
    public static final String SOURCE_TOPIC = "agentbus.dlt.topic";
    public static final String SOURCE_PARTITION = "agentbus.dlt.partition";
    public static final String SOURCE_OFFSET = "agentbus.dlt.offset";
    public static final String CONSUMER = "agentbus.dlt.consumer";

    private DeadLetters() {
    }

    /** The dead-letter record for {@code bad}, which {@code consumer} could not use because of {@code reason}. */
    public static ProducerRecord<String, byte[]> record(ConsumerRecord<String, byte[]> bad, String reason,
                                                        String consumer) {
        LOG.warn("dead-lettering {}-{}@{} for {}: {}", bad.topic(), bad.partition(), bad.offset(), consumer, reason);
        ProducerRecord<String, byte[]> dlt = new ProducerRecord<>(Topics.DEAD_LETTER.name(), bad.key(), bad.value());
        dlt.headers().add(REASON, utf8(reason));
        dlt.headers().add(SOURCE_TOPIC, utf8(bad.topic()));
        dlt.headers().add(SOURCE_PARTITION, utf8(Integer.toString(bad.partition())));
        dlt.headers().add(SOURCE_OFFSET, utf8(Long.toString(bad.offset())));
        dlt.headers().add(CONSUMER, utf8(consumer));
        return dlt;
    }

    private static byte[] utf8(String s) {
        return (s == null ? "" : s).getBytes(StandardCharsets.UTF_8);
    }
}
