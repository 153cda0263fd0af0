package dev.agentbus.bench.hops;

import dev.agentbus.bench.Stats;
import dev.agentbus.broker.EmbeddedKafkaBroker;
import dev.agentbus.eventbus.KafkaSettings;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The floor of one Kafka hop as the services make it: a plain send, a consume-transform-produce transaction
 * (poll, send, sendOffsetsToTransaction, commit) and a {@code read_committed} read of its output. One record at a
 * time, so each figure is latency, not throughput. Prints where the time of one hop goes.
 *
 * <p>{@code bin/bench HopBench [--hops 500] [--broker key=value ...]}
 */
public final class HopBench {
    public static void main(String[] args) throws Exception {
        int hops = 500;
        EmbeddedKafkaBroker.Builder b = EmbeddedKafkaBroker.builder();
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--hops" -> hops = Integer.parseInt(args[++i]);
                case "--broker" -> {
                    String[] kv = args[++i].split("=", 2);
                    b.property(kv[0], kv[1]);
                }
                default -> throw new IllegalArgumentException("unknown argument " + args[i]);
            }
        }
        Path dir = Files.createTempDirectory("hopbench");
        try (EmbeddedKafkaBroker broker = b.dataDir(dir).build()) {
            broker.start();
            KafkaSettings kafka = new KafkaSettings(broker.bootstrapServers(), 1, "0");
            try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()))) {
                admin.createTopics(List.of(new NewTopic("ping", 1, (short) 1), new NewTopic("pong", 1, (short) 1)))
                        .all().get();
            }
            run(kafka, hops);
        }
    }

    private static void run(KafkaSettings kafka, int hops) throws Exception {
        try (KafkaProducer<String, byte[]> driver = new KafkaProducer<>(kafka.producer("driver"));
             KafkaConsumer<String, byte[]> reader = new KafkaConsumer<>(kafka.consumer(null, "reader"));
             KafkaProducer<String, byte[]> txProducer = new KafkaProducer<>(kafka.transactionalProducer("hop"));
             KafkaConsumer<String, byte[]> txConsumer = new KafkaConsumer<>(kafka.consumer("hop", "hop"))) {
            reader.assign(List.of(new TopicPartition("pong", 0)));
            reader.seekToEnd(List.of(new TopicPartition("pong", 0)));
            reader.position(new TopicPartition("pong", 0));
            txProducer.initTransactions();
            txConsumer.subscribe(List.of("ping"));
            while (txConsumer.assignment().isEmpty()) {
                txConsumer.poll(Duration.ofMillis(100));
            }
            double[] send = new double[hops], pollLag = new double[hops], begin = new double[hops],
                    offsets = new double[hops], commit = new double[hops], read = new double[hops], total = new double[hops];
            int warm = Math.min(100, hops / 5);
            for (int i = -warm; i < hops; i++) {
                long t0 = System.nanoTime();
                driver.send(new ProducerRecord<>("ping", "k", ByteBuffer.allocate(8).putLong(t0).array())).get();
                long t1 = System.nanoTime();
                ConsumerRecords<String, byte[]> got;
                do {
                    got = txConsumer.poll(Duration.ofSeconds(5));
                } while (got.isEmpty());
                long t2 = System.nanoTime();
                txProducer.beginTransaction();
                var offs = new java.util.HashMap<TopicPartition, OffsetAndMetadata>();
                for (ConsumerRecord<String, byte[]> r : got) {
                    txProducer.send(new ProducerRecord<>("pong", r.key(), r.value()));
                    offs.put(new TopicPartition(r.topic(), r.partition()), new OffsetAndMetadata(r.offset() + 1));
                }
                long t3 = System.nanoTime();
                txProducer.sendOffsetsToTransaction(offs, txConsumer.groupMetadata());
                long t4 = System.nanoTime();
                txProducer.commitTransaction();
                long t5 = System.nanoTime();
                ConsumerRecords<String, byte[]> out;
                do {
                    out = reader.poll(Duration.ofSeconds(5));
                } while (out.isEmpty());
                long t6 = System.nanoTime();
                if (i >= 0) {
                    send[i] = ms(t1 - t0);
                    pollLag[i] = ms(t2 - t1);
                    begin[i] = ms(t3 - t2);
                    offsets[i] = ms(t4 - t3);
                    commit[i] = ms(t5 - t4);
                    read[i] = ms(t6 - t5);
                    total[i] = ms(t6 - t0);
                }
            }
            System.out.println("# " + Stats.machine() + ", " + hops + " hops, one record at a time");
            System.out.println("| phase | p50 ms | p99 ms |");
            System.out.println("|---|---|---|");
            row("plain send (acks=all)", send);
            row("poll returns the record", pollLag);
            row("send in the transaction", begin);
            row("sendOffsetsToTransaction", offsets);
            row("commitTransaction", commit);
            row("read_committed read of the output", read);
            row("whole hop", total);
        }
    }

    private static void row(String name, double[] v) {
        System.out.printf(Locale.ROOT, "| %s | %.2f | %.2f |%n", name, Stats.median(v), Stats.percentile(v, 99));
    }

    private static double ms(long nanos) {
        return nanos / 1e6;
    }
}
