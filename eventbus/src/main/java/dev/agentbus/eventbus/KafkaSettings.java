package dev.agentbus.eventbus;

import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.context.annotation.Property;
import io.micronaut.core.bind.annotation.Bindable;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

import java.util.HashMap;
import java.util.Map;

/**
 * How a service reaches Kafka. Keys are strings (session or user ids), values raw bytes that
 * {@link dev.agentbus.events.codec.EventCodec} reads, so a bad record reaches our code (and the dead-letter topic)
 * instead of failing inside the Kafka client.
 *
 * <p>Every service's Kafka settings, bound from {@code agentbus.kafka.*} and {@code agentbus.instance-id}
 * (environment: {@code AGENTBUS_KAFKA_BOOTSTRAP_SERVERS}, {@code AGENTBUS_KAFKA_PARTITIONS},
 * {@code AGENTBUS_INSTANCE_ID}) and checked when the service starts. See docs/configuration.md.
 *
 * @param bootstrapServers the brokers, {@code host:port[,host:port…]}
 * @param partitions       partition count used when this service creates the topics
 * @param instanceId       stable per replica; names transactional producers so a restarted replica fences its
 *                         crashed predecessor at once instead of waiting for the transaction time-out
 */
@ConfigurationProperties("agentbus.kafka")
public record KafkaSettings(
        @Bindable(defaultValue = "localhost:9092") String bootstrapServers,
        @Bindable(defaultValue = "3") int partitions,
        // Not under agentbus.kafka: the id names the replica in more than its Kafka clients (the sandbox-worker's
        // containers, for one).
        @Property(name = "agentbus.instance-id") @Bindable(defaultValue = "0") String instanceId) {

    private static final String LAG_REPORTER = "dev.agentbus.telemetry.metrics.KafkaLagReporter";
    private static final boolean LAG_REPORTER_PRESENT = present(LAG_REPORTER);

    private static boolean present(String className) {
        try {
            Class.forName(className, false, KafkaSettings.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException e) {
            return false;
        }
    }

    public KafkaSettings {
        if (bootstrapServers == null || bootstrapServers.isBlank()) {
            throw new IllegalArgumentException("agentbus.kafka.bootstrap-servers must name at least one broker "
                    + "(host:port), not '" + bootstrapServers + "'");
        }
        if (partitions < 1) {
            throw new IllegalArgumentException("agentbus.kafka.partitions must be at least 1, not " + partitions);
        }
        if (instanceId == null || instanceId.isBlank()) {
            throw new IllegalArgumentException("agentbus.instance-id must not be blank");
        }
    }

    public Map<String, Object> consumer(String groupId, String clientId) {
        Map<String, Object> p = new HashMap<>();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        if (groupId != null) {
            p.put(ConsumerConfig.GROUP_ID_CONFIG, groupId);
            // Static membership: a replica restarted after a crash takes its partitions back at once instead of
            // waiting for the dead member's session to time out (and two live replicas with one id are fenced).
            p.put(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG, "agentbus-" + clientId + "-" + instanceId);
            p.put(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, 10_000);
        }
        p.put(ConsumerConfig.CLIENT_ID_CONFIG, clientId + "-" + instanceId);
        p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
        p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        // Only committed transactions: an aborted orchestrator write must never be seen as a fact.
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        p.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 200);
        // Consumer lag per partition as a metric, where the telemetry module is on the class path (every service).
        if (LAG_REPORTER_PRESENT) {
            // Beside JMX's, which setting the list would otherwise replace.
            p.put(ConsumerConfig.METRIC_REPORTER_CLASSES_CONFIG,
                    java.util.List.of(org.apache.kafka.common.metrics.JmxReporter.class.getName(), LAG_REPORTER));
        }
        return p;
    }

    public Map<String, Object> producer(String clientId) {
        Map<String, Object> p = new HashMap<>();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        p.put(ProducerConfig.CLIENT_ID_CONFIG, clientId + "-" + instanceId);
        p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
        p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        p.put(ProducerConfig.LINGER_MS_CONFIG, 0);
        // A batch the broker refuses for a moment is sent again after this. In a transaction that begins right after
        // the last one committed, the first batch to a partition can race the previous transaction's markers (the
        // broker logs OutOfOrderSequenceException for the batches behind it); the default 100 ms wait then showed
        // as the p99 of every agent step (StepBench: 153 ms p99 at one session, 66-76 ms with 10 ms).
        p.put(ProducerConfig.RETRY_BACKOFF_MS_CONFIG, 10);
        return p;
    }

    public Map<String, Object> transactionalProducer(String role) {
        Map<String, Object> p = producer(role);
        p.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "agentbus-" + role + "-" + instanceId);
        // Short, so a transaction left open by a replica that died and never came back blocks readers briefly.
        p.put(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, 15_000);
        return p;
    }
}
