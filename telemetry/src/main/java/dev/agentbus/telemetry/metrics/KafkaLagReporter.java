package dev.agentbus.telemetry.metrics;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Metrics;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.metrics.KafkaMetric;
import org.apache.kafka.common.metrics.MetricsReporter;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Consumer lag per partition, from the Kafka consumer's own {@code records-lag} metric, as the gauge
 * {@link AgentbusMetrics#CONSUMER_LAG}. Kafka instantiates it for every consumer the services create
 * ({@code metric.reporters}, set by {@code KafkaSettings.consumer} when this class is on the class path) and tells
 * it when a partition's metric appears (assigned) and goes (revoked), so the gauges follow the assignment.
 */
public final class KafkaLagReporter implements MetricsReporter {
    private static final String GROUP = "consumer-fetch-manager-metrics";
    private static final String LAG = "records-lag";

    private final Map<MetricName, Meter> gauges = new ConcurrentHashMap<>();

    @Override
    public void configure(Map<String, ?> configs) {
    }

    @Override
    public void init(List<KafkaMetric> metrics) {
        metrics.forEach(this::metricChange);
    }

    @Override
    public void metricChange(KafkaMetric metric) {
        MetricName name = metric.metricName();
        if (!GROUP.equals(name.group()) || !LAG.equals(name.name()) || !name.tags().containsKey("partition")) {
            return;
        }
        gauges.computeIfAbsent(name, n -> Gauge.builder(AgentbusMetrics.CONSUMER_LAG, metric, KafkaLagReporter::value)
                .description("Records behind the end of the partition, as the consumer last saw it")
                .tag("topic", n.tags().getOrDefault("topic", ""))
                .tag("partition", n.tags().get("partition"))
                .tag("client", n.tags().getOrDefault("client-id", ""))
                .strongReference(true)
                .register(Metrics.globalRegistry));
    }

    private static double value(KafkaMetric metric) {
        Object v = metric.metricValue();
        return v instanceof Number n && !Double.isNaN(n.doubleValue()) ? n.doubleValue() : 0;
    }

    @Override
    public void metricRemoval(KafkaMetric metric) {
        Meter gauge = gauges.remove(metric.metricName());
        if (gauge != null) {
            Metrics.globalRegistry.remove(gauge);
        }
    }

    @Override
    public void close() {
        gauges.values().forEach(Metrics.globalRegistry::remove);
        gauges.clear();
    }
}
