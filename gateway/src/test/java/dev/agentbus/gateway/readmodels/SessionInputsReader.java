package dev.agentbus.gateway.readmodels;

import dev.agentbus.events.codec.EventCodec;
import dev.agentbus.events.input.InputEnvelope;
import dev.agentbus.events.topics.Topics;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/** What the gateway wrote for a session on {@code agentbus.session-inputs}, for tests that check its inputs. */
public final class SessionInputsReader {
    private SessionInputsReader() {
    }

    /** The first {@code count} inputs of a session (fewer if they do not arrive within {@code wait}). */
    public static List<InputEnvelope> first(String bootstrapServers, String sessionId, int count, Duration wait) {
        try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                ConsumerConfig.GROUP_ID_CONFIG, "inputs-reader-" + UUID.randomUUID(),
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed"),
                new StringDeserializer(), new ByteArrayDeserializer())) {
            consumer.subscribe(List.of(Topics.SESSION_INPUTS.name()));
            List<InputEnvelope> out = new ArrayList<>();
            long deadline = System.nanoTime() + wait.toNanos();
            while (out.size() < count && System.nanoTime() < deadline) {
                for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                    if (sessionId.equals(r.key())) {
                        out.add(EventCodec.decodeInput(r.value()));
                    }
                }
            }
            return out;
        }
    }
}
