package dev.agentbus.orchestrator.running;

import dev.agentbus.eventbus.KafkaSettings;
import dev.agentbus.events.topics.Topics;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;

import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The settings {@code agentbus.session-snapshots} needs beyond "compacted", applied by the orchestrator — the topic's
 * only writer and reader — at start (idempotent). {@code TopicAdmin} creates the topic like any other.
 *
 * <ul>
 * <li>{@code max.message.bytes} 16 MiB: a long session's state is several MiB of JSON (a 10⁴-event session about
 *     5 MiB); Kafka's default of 1 MiB would leave exactly the sessions that need snapshots most without one.</li>
 * <li>{@code segment.bytes} 64 MiB, {@code segment.ms} 1 hour, {@code min.cleanable.dirty.ratio} 0.1: a takeover reads
 *     the whole partition, including every snapshot compaction has not removed yet, and Kafka compacts only closed
 *     segments (by default 1 GiB or 7 days). Small, often rolled segments keep that read close to one snapshot per
 *     session.</li>
 * </ul>
 */
public final class SnapshotTopic {
    /** The largest snapshot record, uncompressed, that the producer accepts and the topic stores. */
    public static final int MAX_RECORD_BYTES = 16 * 1024 * 1024;

    private static final Map<String, String> SETTINGS = Map.of(
            TopicConfig.MAX_MESSAGE_BYTES_CONFIG, Integer.toString(MAX_RECORD_BYTES),
            TopicConfig.SEGMENT_BYTES_CONFIG, Integer.toString(64 * 1024 * 1024),
            TopicConfig.SEGMENT_MS_CONFIG, Long.toString(TimeUnit.HOURS.toMillis(1)),
            TopicConfig.MIN_CLEANABLE_DIRTY_RATIO_CONFIG, "0.1");

    private SnapshotTopic() {
    }

    public static void configure(KafkaSettings kafka) {
        ConfigResource topic = new ConfigResource(ConfigResource.Type.TOPIC, Topics.SESSION_SNAPSHOTS.name());
        List<AlterConfigOp> ops = SETTINGS.entrySet().stream()
                .map(e -> new AlterConfigOp(new ConfigEntry(e.getKey(), e.getValue()), AlterConfigOp.OpType.SET))
                .toList();
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers(),
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 30_000))) {
            admin.incrementalAlterConfigs(Map.of(topic, ops)).all().get(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while configuring " + topic.name(), e);
        } catch (Exception e) {
            throw new IllegalStateException("cannot configure " + topic.name() + ": " + e.getMessage(), e);
        }
    }

    /** What {@link #configure} sets, for tests. */
    static Map<String, String> settings() {
        return SETTINGS;
    }
}
