package dev.agentbus.eventbus;

import dev.agentbus.broker.EmbeddedKafkaBroker;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.ServerSocket;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

class KafkaHealthIT {
    @TempDir
    Path dir;

    @Test
    void a_running_broker_is_reachable_and_a_stopped_one_is_not() throws Exception {
        try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.builder().dataDir(dir).build()) {
            broker.start();
            try (KafkaHealth health = new KafkaHealth(new KafkaSettings(broker.bootstrapServers(), 1, "0"))) {
                assertThat(health.problem()).isNull();
                broker.stop();
                assertThat(health.problem()).isNotNull();
            }
        }
    }

    @Test
    void nothing_listening_is_reported_with_a_reason() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        try (KafkaHealth health = new KafkaHealth(new KafkaSettings("127.0.0.1:" + port, 1, "0"))) {
            assertThat(health.problem()).isNotBlank();
        }
    }
}
