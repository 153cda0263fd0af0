package dev.agentbus.eventbus.processing;

import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;

import java.util.HashMap;
import java.util.Map;

/**
 * Makes the pair of clients for one run of a processor: a transactional producer and a consumer of the group. Each
 * run gets new ones, because a fenced producer or a consumer that lost its group cannot be reused.
 */
public interface Clients {
    Producer<String, byte[]> producer();

    Consumer<String, byte[]> consumer();

    /**
     * Real Kafka clients.
     *
     * @param producer a transactional producer's settings ({@code KafkaSettings.transactionalProducer})
     * @param consumer a group consumer's settings ({@code KafkaSettings.consumer(group, client)})
     */
    static Clients kafka(Map<String, Object> producer, Map<String, Object> consumer) {
        Map<String, Object> producerSettings = Map.copyOf(new HashMap<>(producer));
        Map<String, Object> consumerSettings = Map.copyOf(new HashMap<>(consumer));
        return new Clients() {
            @Override
            public Producer<String, byte[]> producer() {
                return new KafkaProducer<>(producerSettings);
            }

            @Override
            public Consumer<String, byte[]> consumer() {
                return new KafkaConsumer<>(consumerSettings);
            }
        };
    }
}
