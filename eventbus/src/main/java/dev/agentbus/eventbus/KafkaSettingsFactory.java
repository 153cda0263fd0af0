package dev.agentbus.eventbus;

import io.micronaut.context.annotation.Factory;
import io.micronaut.context.annotation.Value;
import jakarta.inject.Singleton;

/**
 * Every service's Kafka settings, from configuration ({@code agentbus.kafka.*}, or the environment variables
 * {@code AGENTBUS_KAFKA_BOOTSTRAP_SERVERS}, {@code AGENTBUS_KAFKA_PARTITIONS}, {@code AGENTBUS_INSTANCE_ID}).
 * See docs/configuration.md.
 */
@Factory
public class KafkaSettingsFactory {

    @Singleton
    KafkaSettings kafkaSettings(@Value("${agentbus.kafka.bootstrap-servers:`localhost:9092`}") String bootstrap,
                                @Value("${agentbus.kafka.partitions:3}") int partitions,
                                @Value("${agentbus.instance-id:0}") String instanceId) {
        if (partitions < 1) {
            throw new IllegalArgumentException("agentbus.kafka.partitions must be at least 1, got " + partitions);
        }
        return new KafkaSettings(bootstrap, partitions, instanceId);
    }
}
