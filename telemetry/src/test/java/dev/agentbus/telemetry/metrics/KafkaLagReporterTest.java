package dev.agentbus.telemetry.metrics;

import org.apache.kafka.common.metrics.Gauge;
import org.apache.kafka.common.metrics.Metrics;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The consumer's own records-lag metric becomes a gauge per partition, and goes when the partition does. */
class KafkaLagReporterTest {

    /** Runs {@code body} while a consumer-like metrics registry reports {@code lag} for partition 0 of a topic. */
    static void withLag(double lag, Runnable body) {
        try (Metrics kafka = new Metrics()) {
            KafkaLagReporter reporter = new KafkaLagReporter();
            reporter.init(List.of());
            kafka.addReporter(reporter);
            kafka.addMetric(kafka.metricName("records-lag", "consumer-fetch-manager-metrics",
                            Map.of("client-id", "orchestrator-0", "topic", "agentbus.session-inputs", "partition", "0")),
                    (Gauge<Double>) (config, now) -> lag);
            // Not a partition's lag: ignored.
            kafka.addMetric(kafka.metricName("records-lag-max", "consumer-fetch-manager-metrics",
                    Map.of("client-id", "orchestrator-0")), (Gauge<Double>) (config, now) -> 99.0);
            body.run();
        }
    }

    @Test
    void the_lag_of_each_assigned_partition_is_a_gauge_with_topic_partition_and_client() {
        MetricsSetup.install("test");
        withLag(7, () -> assertThat(MetricsSetup.scrape()).contains("agentbus_kafka_consumer_lag{client=\"orchestrator-0\","
                + "partition=\"0\",service=\"test\",topic=\"agentbus.session-inputs\"} 7.0"));
        // The consumer closed (its metrics removed): the series is gone rather than frozen at its last value.
        assertThat(MetricsSetup.scrape()).doesNotContain("agentbus_kafka_consumer_lag{");
    }
}
