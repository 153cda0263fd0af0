package dev.agentbus.eventbus.processing;

import dev.agentbus.broker.EmbeddedKafkaBroker;
import dev.agentbus.eventbus.DeadLetters;
import dev.agentbus.eventbus.KafkaSettings;
import dev.agentbus.eventbus.TopicAdmin;
import dev.agentbus.events.codec.MalformedRecordException;
import dev.agentbus.events.topics.Topics;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Predicate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The processor against a real broker: what it writes and the offsets it consumed commit together, exactly once,
 * also across a failed run; a record that cannot be read is dead-lettered with its reason and the consumer goes on.
 */
class TransactionalProcessorIT {
    static final String IN = "processor-it-in";
    static final String OUT = "processor-it-out";
    static final String GROUP = "processor-it";

    @TempDir
    static Path dir;
    static EmbeddedKafkaBroker broker;
    static KafkaSettings kafka;

    @BeforeAll
    static void startBroker() throws Exception {
        broker = EmbeddedKafkaBroker.builder().dataDir(dir).build();
        broker.start();
        kafka = new KafkaSettings(broker.bootstrapServers(), 1, "0");
        TopicAdmin.ensureTopics(kafka); // the dead-letter topic among them
        try (Admin admin = admin()) {
            admin.createTopics(List.of(new NewTopic(IN, 1, (short) 1), new NewTopic(OUT, 1, (short) 1)))
                    .all().get(30, TimeUnit.SECONDS);
        }
    }

    @AfterAll
    static void stopBroker() {
        if (broker != null) {
            broker.close();
        }
    }

    static Admin admin() {
        return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()));
    }

    /** Echoes each value as "<value>!"; fails its first batch that holds "boom", after sending that batch's echoes. */
    static final class Echo implements Handler<String> {
        final AtomicBoolean failedOnce = new AtomicBoolean();

        @Override
        public void handle(List<Decoded<String>> records, Outbox out, LoopContext loop) {
            for (Decoded<String> d : records) {
                out.send(new ProducerRecord<>(OUT, d.record().key(), utf8(d.value() + "!")));
            }
            if (records.stream().anyMatch(d -> d.value().equals("boom")) && failedOnce.compareAndSet(false, true)) {
                throw new IllegalStateException("the handler fails once, after sending");
            }
        }
    }

    static String decode(ConsumerRecord<String, byte[]> r) {
        String value = new String(r.value(), StandardCharsets.UTF_8);
        if (value.startsWith("poison")) {
            throw new MalformedRecordException("cannot read " + value);
        }
        return value;
    }

    static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    TransactionalProcessor<String> processor(Echo handler) {
        return new TransactionalProcessor<>(
                new ProcessorSettings("processor-it", "processor-it", IN, Duration.ofMillis(50),
                        ProcessorSettings.Unreadable.DEAD_LETTER),
                Clients.kafka(kafka.transactionalProducer("processor-it"), kafka.consumer(GROUP, "processor-it")),
                TransactionalProcessorIT::decode, handler).start();
    }

    @Test
    void output_and_offsets_commit_together_exactly_once_and_a_poison_record_is_dead_lettered() throws Exception {
        try (KafkaProducer<String, byte[]> in = new KafkaProducer<>(kafka.producer("processor-it-source"))) {
            for (String value : List.of("a", "poison-1", "b", "boom", "c")) {
                in.send(new ProducerRecord<>(IN, "k", utf8(value))).get();
            }
        }

        Echo handler = new Echo();
        try (TransactionalProcessor<String> first = processor(handler)) {
            // the failed batch is aborted, the run starts again with new clients and handles it once
            assertThat(await(OUT, values -> values.size() >= 4)).containsExactly("a!", "b!", "boom!", "c!");
            assertThat(handler.failedOnce).isTrue();
            assertThat(committedOffset()).isEqualTo(5);
        }

        List<ConsumerRecord<String, byte[]>> dead = readAll(Topics.DEAD_LETTER.name());
        assertThat(dead).hasSize(1);
        assertThat(new String(dead.getFirst().value(), StandardCharsets.UTF_8)).isEqualTo("poison-1");
        assertThat(new String(dead.getFirst().headers().lastHeader(DeadLetters.REASON).value(),
                StandardCharsets.UTF_8)).isEqualTo("cannot read poison-1");

        // a new instance of the group goes on from the committed offset: nothing is handled twice
        try (KafkaProducer<String, byte[]> in = new KafkaProducer<>(kafka.producer("processor-it-source"))) {
            in.send(new ProducerRecord<>(IN, "k", utf8("d"))).get();
        }
        try (TransactionalProcessor<String> second = processor(new Echo())) {
            assertThat(await(OUT, values -> values.contains("d!"))).containsExactly("a!", "b!", "boom!", "c!", "d!");
        }
    }

    long committedOffset() throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        try (Admin admin = admin()) {
            while (true) {
                OffsetAndMetadata offset = admin.listConsumerGroupOffsets(GROUP).partitionsToOffsetAndMetadata()
                        .get(30, TimeUnit.SECONDS).get(new TopicPartition(IN, 0));
                if ((offset != null && offset.offset() == 5) || System.nanoTime() > deadline) {
                    return offset == null ? -1 : offset.offset();
                }
                Thread.onSpinWait();
            }
        }
    }

    /** The committed values of a topic once {@code done} holds for them (at most 60 s). */
    static List<String> await(String topic, Predicate<List<String>> done) {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        List<String> values = new ArrayList<>();
        try (KafkaConsumer<String, byte[]> c = new KafkaConsumer<>(kafka.consumer(null, "processor-it-reader"))) {
            TopicPartition tp = new TopicPartition(topic, 0);
            c.assign(List.of(tp));
            c.seekToBeginning(List.of(tp));
            while (!done.test(values) && System.nanoTime() < deadline) {
                c.poll(Duration.ofMillis(100)).forEach(r -> values.add(new String(r.value(), StandardCharsets.UTF_8)));
            }
        }
        return values;
    }

    /** Every committed record of a one-partition topic, up to its end now. */
    static List<ConsumerRecord<String, byte[]>> readAll(String topic) {
        List<ConsumerRecord<String, byte[]>> out = new ArrayList<>();
        try (KafkaConsumer<String, byte[]> c = new KafkaConsumer<>(kafka.consumer(null, "processor-it-reader"))) {
            List<TopicPartition> partitions = c.partitionsFor(topic).stream()
                    .map(p -> new TopicPartition(topic, p.partition())).toList();
            c.assign(partitions);
            c.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = c.endOffsets(partitions);
            while (partitions.stream().anyMatch(p -> c.position(p) < end.get(p))) {
                c.poll(Duration.ofMillis(100)).forEach(out::add);
            }
        }
        return out;
    }
}
