package dev.agentbus.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EmbeddedKafkaBrokerRestartIT {

    @TempDir
    Path tmp;

    @Test
    void restartKeepsDataPortsAndClusterId() throws Exception {
        Path dir = tmp.resolve("does/not/exist/yet");
        String firstBootstrap;
        String clusterId;
        int port;
        try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.builder().dataDir(dir).build()) {
            broker.start();
            assertThat(dir.resolve("meta.properties")).exists();
            firstBootstrap = broker.bootstrapServers();
            clusterId = broker.clusterId();
            port = broker.port();
            assertThat(clusterId).isNotBlank();
            assertThat(EmbeddedKafkaBroker.readClusterId(dir)).contains(clusterId);

            TestClients.createTopic(firstBootstrap, "durable", 3);
            TestClients.produce(firstBootstrap, "durable", "k", "before-restart");

            // In-process restart: same object, same auto-picked ports, same data.
            long t0 = System.nanoTime();
            broker.restart();
            System.err.printf("broker restart took %d ms%n", TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0));
            assertThat(broker.isRunning()).isTrue();
            assertThat(broker.bootstrapServers()).isEqualTo(firstBootstrap);
            assertThat(broker.clusterId()).isEqualTo(clusterId);
            assertThat(TestClients.readAll(firstBootstrap, "durable", "read_uncommitted"))
                    .extracting(ConsumerRecord::value).containsExactly("before-restart");
            TestClients.produce(firstBootstrap, "durable", "k", "after-restart");

            broker.stop();
            assertThat(broker.isRunning()).isFalse();
        }

        // What the standalone launcher does across process restarts: a new instance on the same
        // data dir with a fixed port; the controller port is picked afresh, which a static
        // quorum tolerates.
        try (EmbeddedKafkaBroker again = EmbeddedKafkaBroker.builder().dataDir(dir).port(port).build()) {
            again.start();
            assertThat(again.bootstrapServers()).isEqualTo(firstBootstrap);
            assertThat(again.clusterId()).isEqualTo(clusterId);
            assertThat(TestClients.readAll(firstBootstrap, "durable", "read_uncommitted"))
                    .extracting(ConsumerRecord::value).containsExactly("before-restart", "after-restart");
        }
        try (var files = Files.list(dir)) {
            assertThat(files.map(p -> p.getFileName().toString())).contains("meta.properties");
        }
    }

    @Test
    void failedStartReleasesTheDataDirSoTheNextStartWorks() throws Exception {
        Path dir = tmp.resolve("kafka");
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            EmbeddedKafkaBroker blocked = EmbeddedKafkaBroker.builder()
                    .dataDir(dir).port(taken.getLocalPort()).build();
            // A fixed port that is taken must fail loudly (no silent move to another port).
            assertThatThrownBy(blocked::start).hasStackTraceContaining(String.valueOf(taken.getLocalPort()));
            assertThat(blocked.isRunning()).isFalse();
        }
        String clusterId = EmbeddedKafkaBroker.readClusterId(dir).orElseThrow();

        // The failed attempt must have let go of the data dir lock, threads and controller port.
        try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.builder().dataDir(dir).build()) {
            broker.start();
            assertThat(broker.clusterId()).isEqualTo(clusterId);
            TestClients.createTopic(broker.bootstrapServers(), "after-failure", 1);
        }
    }
}
