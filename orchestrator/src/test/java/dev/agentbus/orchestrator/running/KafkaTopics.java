package dev.agentbus.orchestrator.running;

import dev.agentbus.broker.EmbeddedKafkaBroker;
import dev.agentbus.eventbus.KafkaSettings;
import dev.agentbus.eventbus.TopicAdmin;
import dev.agentbus.events.topics.TopicSpec;
import dev.agentbus.events.topics.Topics;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * A real single-node broker for a test class, with the topics of {@link Topics#ALL} emptied before each test by
 * deleting and creating them again (much faster than a broker per test).
 */
final class KafkaTopics implements AutoCloseable {
    final EmbeddedKafkaBroker broker;
    final KafkaSettings kafka;

    KafkaTopics(Path dir, int partitions) {
        broker = EmbeddedKafkaBroker.builder().dataDir(dir).build();
        broker.start();
        kafka = new KafkaSettings(broker.bootstrapServers(), partitions, "0");
    }

    void recreate() throws Exception {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()))) {
            Set<String> names = admin.listTopics().names().get(30, TimeUnit.SECONDS);
            var ours = Topics.ALL.stream().map(TopicSpec::name).filter(names::contains).toList();
            if (!ours.isEmpty()) {
                admin.deleteTopics(ours).all().get(30, TimeUnit.SECONDS);
                long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
                while (admin.listTopics().names().get(30, TimeUnit.SECONDS).stream().anyMatch(ours::contains)) {
                    if (System.nanoTime() > deadline) {
                        throw new IllegalStateException("topics not deleted within 30 s");
                    }
                    Thread.sleep(50);
                }
            }
        }
        // A topic just deleted may linger in the broker's metadata for a moment: retry creating it.
        for (int attempt = 1; ; attempt++) {
            try {
                TopicAdmin.ensureTopics(kafka);
                SnapshotTopic.configure(kafka); // as OrchestratorRuntime does at start
                return;
            } catch (IllegalStateException e) {
                if (attempt == 20) {
                    throw e;
                }
                Thread.sleep(250);
            }
        }
    }

    @Override
    public void close() {
        broker.close();
    }
}
