package dev.agentbus.telemetry.metrics;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Grafana dashboard (deploy/grafana/agentbus.json) queries only series the code really registers: every
 * {@code agentbus_*} name in its queries appears on a /metrics page after each metric was recorded once.
 */
class DashboardTest {
    private static final Pattern METRIC = Pattern.compile("\\bagentbus_[a-z_]+");

    @Test
    void every_metric_the_dashboard_queries_is_one_the_code_registers() throws Exception {
        Set<String> served = RecordedOnce.seriesNames();
        assertThat(served).containsAll(AgentbusMetrics.PROMETHEUS_NAMES);

        JsonNode dashboard = new ObjectMapper().readTree(
                Files.readString(Path.of("..", "deploy", "grafana", "agentbus.json")));
        Set<String> queried = new TreeSet<>();
        for (JsonNode panel : dashboard.path("panels")) {
            for (JsonNode target : panel.path("targets")) {
                Matcher m = METRIC.matcher(target.path("expr").asText());
                while (m.find()) {
                    queried.add(m.group());
                }
            }
        }
        assertThat(queried).as("metrics the dashboard queries").isNotEmpty().allSatisfy(name ->
                assertThat(served).as(name + " on /metrics").contains(name));
        // Each kind of metric the issue asks for has a panel.
        assertThat(queried).contains("agentbus_kafka_consumer_lag", "agentbus_step_duration_seconds_bucket",
                "agentbus_model_call_duration_seconds_bucket", "agentbus_model_tokens_total",
                "agentbus_tool_duration_seconds_bucket", "agentbus_sandbox_pool_total", "agentbus_approvals_pending");
    }

    /** Records each metric once into this JVM's Prometheus registry and reads back the series names it serves. */
    static final class RecordedOnce {
        static Set<String> seriesNames() {
            MetricsSetup.install("test");
            var step = AgentbusMetrics.stepStarted();
            AgentbusMetrics.stepDone(step);
            AgentbusMetrics.modelCall(Duration.ofMillis(120), true, 100, 20);
            AgentbusMetrics.toolCall("shell", Duration.ofMillis(30), true);
            AgentbusMetrics.sandboxPool(true);
            AgentbusMetrics.approvalsPending(() -> 2);
            Set<String> names = new TreeSet<>();
            KafkaLagReporterTest.withLag(3, () -> {
                for (String line : MetricsSetup.scrape().split("\n")) {
                    if (!line.startsWith("#") && !line.isBlank()) {
                        names.add(line.split("[{ ]", 2)[0]);
                    }
                }
            });
            return names;
        }
    }
}
