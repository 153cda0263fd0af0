package dev.agentbus.eventbus;

import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;

import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Reading a whole topic without a consumer group: for services that must see every partition. */
public final class Partitions {
    private Partitions() {
    }

    /**
     * Waits (at most {@code timeout}) until no transaction is open on these partitions, so that what a
     * {@code read_committed} reader sees up to the end is everything that was committed. Kafka writes commit markers
     * asynchronously, so right after another writer's commit its last batch can still be invisible; a new owner
     * folding a partition must not miss it.
     */
    public static void awaitStable(KafkaSettings kafka, Collection<TopicPartition> partitions, Duration timeout) {
        Map<String, Object> uncommitted = new HashMap<>(kafka.consumer(null, "stable-check"));
        uncommitted.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_uncommitted");
        try (KafkaConsumer<String, byte[]> committedView = new KafkaConsumer<>(kafka.consumer(null, "stable-check"));
             KafkaConsumer<String, byte[]> uncommittedView = new KafkaConsumer<>(uncommitted)) {
            long deadline = System.nanoTime() + timeout.toNanos();
            while (!committedView.endOffsets(partitions).equals(uncommittedView.endOffsets(partitions))
                    && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Reads every partition of the topic, from the start or from now on, handing each record to {@code handler}
     * until the loop stops. When reading from the start, {@code caughtUp} runs once the reader has reached where the
     * topic ended when it began: the moment a view built from the topic is complete.
     */
    public static void follow(ServiceLoop loop, KafkaSettings kafka, String clientId, String topic, boolean fromStart,
                              java.util.function.Consumer<ConsumerRecord<String, byte[]>> handler, Runnable caughtUp) {
        try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(kafka.consumer(null, clientId))) {
            loop.wakeOnClose(consumer);
            List<TopicPartition> partitions = assignAll(consumer, topic, fromStart);
            Map<TopicPartition, Long> end = fromStart ? consumer.endOffsets(partitions) : Map.of();
            boolean signalled = !fromStart;
            while (loop.running()) {
                for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                    handler.accept(r);
                }
                if (!signalled && end.entrySet().stream().allMatch(e -> consumer.position(e.getKey()) >= e.getValue())) {
                    signalled = true;
                    caughtUp.run();
                }
            }
        }
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
