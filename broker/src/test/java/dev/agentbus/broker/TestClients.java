package dev.agentbus.broker;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/** Plain Kafka clients against a bootstrap address; kept out of the tests so they read as scenarios. */
final class TestClients {

    private TestClients() {
    }

    static void createTopic(String bootstrap, String topic, int partitions) throws Exception {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
            admin.createTopics(List.of(new NewTopic(topic, partitions, (short) 1))).all().get(30, TimeUnit.SECONDS);
        }
    }

    static KafkaProducer<String, String> producer(String bootstrap, Map<String, Object> extra) {
        Map<String, Object> cfg = new java.util.HashMap<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class,
                ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class,
                ProducerConfig.ACKS_CONFIG, "all"));
        cfg.putAll(extra);
        return new KafkaProducer<>(cfg);
    }

    static void produce(String bootstrap, String topic, String key, String value) throws Exception {
        try (KafkaProducer<String, String> p = producer(bootstrap, Map.of())) {
            p.send(new ProducerRecord<>(topic, key, value)).get(30, TimeUnit.SECONDS);
        }
    }

    static KafkaConsumer<String, String> consumer(String bootstrap, Map<String, Object> extra) {
        Map<String, Object> cfg = new java.util.HashMap<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class,
                ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class,
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false));
        cfg.putAll(extra);
        return new KafkaConsumer<>(cfg);
    }

    /**
     * Reads every partition of the topic from the beginning up to its end offset as seen at call
     * time (for read_committed that is the last stable offset), without a consumer group so no
     * rebalance is involved.
     */
    static List<ConsumerRecord<String, String>> readAll(String bootstrap, String topic, String isolation)
            throws Exception {
        try (KafkaConsumer<String, String> c = consumer(bootstrap,
                Map.of(ConsumerConfig.ISOLATION_LEVEL_CONFIG, isolation))) {
            List<TopicPartition> tps = c.partitionsFor(topic, Duration.ofSeconds(30)).stream()
                    .map(pi -> new TopicPartition(topic, pi.partition())).toList();
            c.assign(tps);
            c.seekToBeginning(tps);
            Map<TopicPartition, Long> end = c.endOffsets(tps, Duration.ofSeconds(30));
            List<ConsumerRecord<String, String>> out = new ArrayList<>();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (!caughtUp(c, end)) {
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("did not reach end offsets " + end + " of " + topic);
                }
                c.poll(Duration.ofMillis(200)).forEach(out::add);
            }
            return out;
        }
    }

    private static boolean caughtUp(KafkaConsumer<String, String> c, Map<TopicPartition, Long> end) {
        Set<TopicPartition> tps = end.keySet();
        return tps.stream().allMatch(tp -> c.position(tp, Duration.ofSeconds(10)) >= end.get(tp));
    }
}
