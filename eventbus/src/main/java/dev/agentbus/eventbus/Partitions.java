package dev.agentbus.eventbus;

import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.common.TopicPartition;

import java.time.Duration;
import java.util.List;

/** Reading a whole topic without a consumer group: for services that must see every partition. */
public final class Partitions {
    private Partitions() {
    }

    /** Assigns every partition of the topic and seeks to its start (or end), and returns them. */
    public static List<TopicPartition> assignAll(Consumer<?, ?> consumer, String topic, boolean fromStart) {
        List<TopicPartition> partitions = consumer.partitionsFor(topic, Duration.ofSeconds(60)).stream()
                .map(p -> new TopicPartition(topic, p.partition())).toList();
        consumer.assign(partitions);
        if (fromStart) {
            consumer.seekToBeginning(partitions);
        } else {
            consumer.seekToEnd(partitions);
        }
        return partitions;
    }
}
