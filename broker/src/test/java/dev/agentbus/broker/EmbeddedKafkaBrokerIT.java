package dev.agentbus.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import ch.qos.logback.classic.Level;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * One broker for the whole class: start-up is the expensive part, and these scenarios only need
 * distinct topics, not distinct brokers.
 */
class EmbeddedKafkaBrokerIT {

    @TempDir
    static Path dataDir;

    static EmbeddedKafkaBroker broker;

    @BeforeAll
    static void startBroker() {
        broker = EmbeddedKafkaBroker.builder().dataDir(dataDir.resolve("kafka")).build();
        long t0 = System.nanoTime();
        broker.start();
        System.err.printf("broker start (fresh format) took %d ms%n",
                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0));
    }

    @AfterAll
    static void stopBroker() {
        if (broker != null) {
            long t0 = System.nanoTime();
            broker.close();
            System.err.printf("broker stop took %d ms%n", TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0));
        }
    }

    @Test
    void createsTopicWithThreePartitionsAndRoundTripsARecordThroughAConsumerGroup() throws Exception {
        String bootstrap = broker.bootstrapServers();
        assertThat(broker.isRunning()).isTrue();
        assertThat(bootstrap).matches("127\\.0\\.0\\.1:\\d+");

        TestClients.createTopic(bootstrap, "plain", 3);
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
            var description = admin.describeTopics(List.of("plain")).allTopicNames().get(30, TimeUnit.SECONDS);
            assertThat(description.get("plain").partitions()).hasSize(3);
        }

        TestClients.produce(bootstrap, "plain", "k1", "hello");

        // subscribe() with a group id: exercises the group coordinator and __consumer_offsets,
        // which only work on one node because of the replication-factor overrides.
        try (KafkaConsumer<String, String> c = TestClients.consumer(bootstrap,
                Map.of(ConsumerConfig.GROUP_ID_CONFIG, "g1"))) {
            c.subscribe(List.of("plain"));
            List<ConsumerRecord<String, String>> got = new ArrayList<>();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (got.isEmpty() && System.nanoTime() < deadline) {
                c.poll(Duration.ofMillis(200)).forEach(got::add);
            }
            assertThat(got).singleElement().satisfies(r -> {
                assertThat(r.key()).isEqualTo("k1");
                assertThat(r.value()).isEqualTo("hello");
            });
            c.commitSync(Duration.ofSeconds(30));
        }
    }

    @Test
    void readCommittedConsumerSeesCommittedButNotAbortedTransactions() throws Exception {
        String bootstrap = broker.bootstrapServers();
        TestClients.createTopic(bootstrap, "tx", 1);

        try (KafkaProducer<String, String> p = TestClients.producer(bootstrap,
                Map.of(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "tx-test"))) {
            p.initTransactions();

            p.beginTransaction();
            p.send(new ProducerRecord<>("tx", "k", "committed"));
            p.commitTransaction();

            p.beginTransaction();
            p.send(new ProducerRecord<>("tx", "k", "aborted"));
            p.flush(); // make sure the record really reaches the log before the abort
            p.abortTransaction();
        }

        List<String> committed = TestClients.readAll(bootstrap, "tx", "read_committed")
                .stream().map(ConsumerRecord::value).toList();
        assertThat(committed).containsExactly("committed");

        // Control: the aborted record is in the log, so read_committed really filtered it.
        List<String> everything = TestClients.readAll(bootstrap, "tx", "read_uncommitted")
                .stream().map(ConsumerRecord::value).toList();
        assertThat(everything).containsExactly("committed", "aborted");
    }

    @Test
    void topicsAreNotAutoCreated() throws Exception {
        try (KafkaProducer<String, String> p = TestClients.producer(broker.bootstrapServers(),
                Map.of(ProducerConfig.MAX_BLOCK_MS_CONFIG, 1_000))) {
            assertThatThrownBy(() -> p.send(new ProducerRecord<>("no-such-topic", "v")).get(10, TimeUnit.SECONDS))
                    .hasStackTraceContaining("no-such-topic");
        }
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()))) {
            assertThat(admin.listTopics().names().get(30, TimeUnit.SECONDS)).doesNotContain("no-such-topic");
        }
    }

    @Test
    void kafkaLoggersAreHeldAtWarnUnlessConfigured() {
        // logback-test.xml leaves root at INFO and does not mention Kafka; the broker must quiet it.
        for (String name : KafkaLogLevels.KAFKA_LOGGERS) {
            var logger = (ch.qos.logback.classic.Logger) LoggerFactory.getLogger(name);
            assertThat(logger.getEffectiveLevel()).as(name).isEqualTo(Level.WARN);
        }
        var serverLogger = (ch.qos.logback.classic.Logger) LoggerFactory.getLogger("kafka.server.BrokerServer");
        assertThat(serverLogger.getEffectiveLevel()).isEqualTo(Level.WARN);
    }

    @Test
    void builderRequiresDataDir() {
        assertThatThrownBy(() -> EmbeddedKafkaBroker.builder().build())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("dataDir");
        assertThat(Set.of(broker.port(), broker.controllerPort())).hasSize(2);
    }
}
