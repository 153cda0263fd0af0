package dev.agentbus.containertests;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.kafka.KafkaContainer;
import org.testcontainers.utility.DockerImageName;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Kafka image of {@code deploy/images} ({@code agentbus/kafka:dev}) run by Testcontainers' own
 * {@link KafkaContainer}, declared a compatible substitute for {@code apache/kafka}: the container starts the image
 * with apache/kafka's conventions (its {@code KAFKA_*} variables, its start script {@code /etc/kafka/docker/run},
 * and the log line it waits for), so this proves the image honours them. Then a transactional producer (as the
 * orchestrator writes) and a {@code read_committed} consumer (as every service reads) go through it.
 *
 * <p>No registry is reachable, so Ryuk (Testcontainers' reaper, an image of its own) is off
 * ({@code TESTCONTAINERS_RYUK_DISABLED=true}, set by this module's failsafe configuration) and the container is
 * stopped here. The image is built by {@code deploy/images/build.sh} when it is missing or older than its jar.
 */
class KafkaImageIT {
    static final DockerImageName IMAGE = DockerImageName.parse("agentbus/kafka:dev").asCompatibleSubstituteFor("apache/kafka");

    static KafkaContainer kafka;

    @BeforeAll
    static void start() throws Exception {
        boolean docker = DockerClientFactory.instance().isDockerAvailable();
        if (!docker && "true".equals(System.getenv("CI"))) {
            throw new AssertionError("KafkaImageIT needs a Docker engine");
        }
        Assumptions.assumeTrue(docker, "no Docker engine: KafkaImageIT skipped");
        buildImages();
        kafka = new KafkaContainer(IMAGE).withStartupTimeout(Duration.ofMinutes(3));
        kafka.start();
    }

    @AfterAll
    static void stop() {
        if (kafka != null) {
            kafka.stop();
        }
    }

    @Test
    void a_transactional_producer_and_a_read_committed_consumer_go_through_the_image() throws Exception {
        String bootstrap = kafka.getBootstrapServers();
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
            admin.createTopics(List.of(new NewTopic("image-check", 2, (short) 1))).all().get(60, TimeUnit.SECONDS);
            assertThat(admin.describeCluster().nodes().get(30, TimeUnit.SECONDS)).as("one node").hasSize(1);
        }

        try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ProducerConfig.TRANSACTIONAL_ID_CONFIG, "image-check",
                ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class,
                ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class))) {
            producer.initTransactions();
            producer.beginTransaction();
            producer.send(new ProducerRecord<>("image-check", "session-1", "committed"));
            producer.commitTransaction();
            producer.beginTransaction();
            producer.send(new ProducerRecord<>("image-check", "session-1", "aborted"));
            producer.flush();
            producer.abortTransaction();
            producer.beginTransaction();
            producer.send(new ProducerRecord<>("image-check", "session-1", "committed too"));
            producer.commitTransaction();
        }

        List<String> seen = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ConsumerConfig.GROUP_ID_CONFIG, "image-check",
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed",
                ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class,
                ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class))) {
            consumer.subscribe(Set.of("image-check"));
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            // poll() blocks up to its timeout waiting for records, so this waits for data, not for a fixed time.
            while (seen.size() < 2 && System.nanoTime() < deadline) {
                for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofSeconds(1))) {
                    seen.add(r.value());
                }
            }
        }
        assertThat(seen).as("only the committed records, in order").containsExactly("committed", "committed too");
    }

    /** Runs deploy/images/build.sh, which builds what is missing or stale and otherwise returns in a second. */
    static void buildImages() throws Exception {
        Path repo = Path.of("").toAbsolutePath().getParent();
        Process p = new ProcessBuilder(repo.resolve("deploy/images/build.sh").toString())
                .directory(repo.toFile()).redirectErrorStream(true)
                .redirectOutput(repo.resolve("container-tests/target/images-build.log").toFile()).start();
        if (!p.waitFor(20, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            throw new AssertionError("deploy/images/build.sh took more than 20 minutes");
        }
        assertThat(p.exitValue()).as("deploy/images/build.sh (see container-tests/target/images-build.log)").isZero();
    }
}
