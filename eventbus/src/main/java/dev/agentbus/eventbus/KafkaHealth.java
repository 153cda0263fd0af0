package dev.agentbus.eventbus;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.DescribeClusterOptions;

import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Answers "is Kafka reachable right now?" within a short time, for health endpoints and start-up checks. */
public final class KafkaHealth implements AutoCloseable {
    private final Admin admin;

    public KafkaHealth(KafkaSettings kafka) {
        this.admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers(),
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 3_000,
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 3_000));
    }

    /** Null when reachable, else why not. */
    public String problem() {
        try {
            admin.describeCluster(new DescribeClusterOptions().timeoutMs(2_000)).nodes().get(3, TimeUnit.SECONDS);
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted";
        } catch (Exception e) {
            return e.getCause() != null ? e.getCause().toString() : e.toString();
        }
    }

    @Override
    public void close() {
        admin.close();
    }
}
