package dev.agentbus.eventbus;

import dev.agentbus.events.topics.TopicSpec;
import dev.agentbus.events.topics.Topics;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.TopicExistsException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * Creates the topics of {@link Topics#ALL} at start-up. Every service calls it, so whichever starts first creates
 * them and the others find them; auto-creation stays off on the broker so a typo cannot invent a topic.
 */
public final class TopicAdmin {
    private static final Logger LOG = LoggerFactory.getLogger(TopicAdmin.class);

    private TopicAdmin() {
    }

    public static void ensureTopics(KafkaSettings kafka) {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers(),
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 30_000))) {
            var existing = admin.listTopics().names().get(30, TimeUnit.SECONDS);
            List<NewTopic> missing = Topics.ALL.stream()
                    .filter(t -> !existing.contains(t.name()))
                    .map(t -> newTopic(t, kafka.partitions()))
                    .toList();
            for (NewTopic topic : missing) {
                try {
                    admin.createTopics(List.of(topic)).all().get(30, TimeUnit.SECONDS);
                    LOG.info("created topic {} with {} partitions", topic.name(), topic.numPartitions());
                } catch (ExecutionException e) {
                    if (!(e.getCause() instanceof TopicExistsException)) {
                        throw e;
                    }
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while creating topics", e);
        } catch (Exception e) {
            throw new IllegalStateException("cannot create topics on Kafka at " + kafka.bootstrapServers()
                    + ": " + e.getMessage(), e);
        }
    }

    static NewTopic newTopic(TopicSpec spec, int partitions) {
        Map<String, String> config = new HashMap<>();
        if (spec.compacted()) {
            config.put(TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT);
        } else {
            Duration retention = spec.retention();
            config.put(TopicConfig.RETENTION_MS_CONFIG, retention == null ? "-1" : Long.toString(retention.toMillis()));
        }
        // Per-user and per-call topics are small; the session topics carry the load.
        int count = Topics.SESSION_PARTITIONED.contains(spec) ? partitions : Math.max(1, Math.min(partitions, 3));
        return new NewTopic(spec.name(), count, (short) 1).configs(config);
    }
}
