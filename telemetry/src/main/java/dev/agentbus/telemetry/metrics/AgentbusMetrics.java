package dev.agentbus.telemetry.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Metrics;
import io.micrometer.core.instrument.Timer;

import java.time.Duration;
import java.util.List;
import java.util.function.Supplier;

/**
 * The metrics the services record, with their names in one place (docs/operations.md lists them, and the Grafana
 * dashboard in deploy/grafana queries them; a test checks the dashboard against {@link #PROMETHEUS_NAMES}).
 *
 * <p>They go to Micrometer's global registry: with no registry added (a test, a tool) a meter costs next to nothing;
 * {@link MetricsSetup} adds the Prometheus registry that {@code /metrics} serves.
 */
public final class AgentbusMetrics {
    /** Timer: the orchestrator deciding one input (a step), from the record to its events sent. */
    public static final String STEP = "agentbus.step.duration";
    /** Timer, tag {@code outcome} (ok, failed): one model call, from the request to the last token. */
    public static final String MODEL_CALL = "agentbus.model.call.duration";
    /** Counter, tag {@code kind} (prompt, completion): tokens the model server reported (or that were estimated). */
    public static final String MODEL_TOKENS = "agentbus.model.tokens";
    /** Timer, tags {@code tool} and {@code outcome} (ok, failed): one tool call in the sandbox-worker. */
    public static final String TOOL = "agentbus.tool.duration";
    /** Counter, tag {@code result} (hit, miss): a tool call found a warm sandbox for its session, or had to start one. */
    public static final String SANDBOX_POOL = "agentbus.sandbox.pool";
    /** Gauge: approvals the scheduler is waiting on (asked, neither answered nor expired). */
    public static final String APPROVALS_PENDING = "agentbus.approvals.pending";
    /** Gauge, tags {@code topic}, {@code partition}, {@code client}: records behind the end of the partition. */
    public static final String CONSUMER_LAG = "agentbus.kafka.consumer.lag";

    /** The series names these become in Prometheus's exposition (what a dashboard queries). */
    public static final List<String> PROMETHEUS_NAMES = List.of(
            "agentbus_step_duration_seconds_count", "agentbus_step_duration_seconds_sum",
            "agentbus_step_duration_seconds_bucket",
            "agentbus_model_call_duration_seconds_count", "agentbus_model_call_duration_seconds_sum",
            "agentbus_model_call_duration_seconds_bucket",
            "agentbus_model_tokens_total",
            "agentbus_tool_duration_seconds_count", "agentbus_tool_duration_seconds_sum",
            "agentbus_tool_duration_seconds_bucket",
            "agentbus_sandbox_pool_total",
            "agentbus_approvals_pending",
            "agentbus_kafka_consumer_lag");

    private AgentbusMetrics() {
    }

    /** Starts timing a step; stop it with {@link #stepDone}. */
    public static Timer.Sample stepStarted() {
        return Timer.start(Metrics.globalRegistry);
    }

    public static void stepDone(Timer.Sample sample) {
        sample.stop(timer(STEP, "The orchestrator deciding one input"));
    }

    public static void modelCall(Duration took, boolean ok, long promptTokens, long completionTokens) {
        timer(MODEL_CALL, "One model call, request to last token", "outcome", ok ? "ok" : "failed").record(took);
        if (promptTokens > 0) {
            tokens("prompt").increment(promptTokens);
        }
        if (completionTokens > 0) {
            tokens("completion").increment(completionTokens);
        }
    }

    public static void toolCall(String tool, Duration took, boolean ok) {
        timer(TOOL, "One tool call in the sandbox-worker", "tool", tool, "outcome", ok ? "ok" : "failed")
                .record(took);
    }

    /** A tool call found its session's sandbox warm ({@code true}) or had to start one. */
    public static void sandboxPool(boolean hit) {
        Counter.builder(SANDBOX_POOL).description("Tool calls that found a warm sandbox (hit) or started one (miss)")
                .tag("result", hit ? "hit" : "miss").register(Metrics.globalRegistry).increment();
    }

    /** Reports {@code pending} as the number of approvals pending (read at each scrape). */
    public static void approvalsPending(Supplier<Number> pending) {
        Gauge.builder(APPROVALS_PENDING, pending).description("Approvals asked and neither answered nor expired")
                .strongReference(true).register(Metrics.globalRegistry);
    }

    private static Counter tokens(String kind) {
        return Counter.builder(MODEL_TOKENS).description("Tokens of model calls").tag("kind", kind)
                .register(Metrics.globalRegistry);
    }

    private static Timer timer(String name, String description, String... tags) {
        return Timer.builder(name).description(description).tags(tags)
                // Buckets, so a dashboard can show percentiles across replicas (histogram_quantile).
                .publishPercentileHistogram().minimumExpectedValue(Duration.ofMillis(1))
                .maximumExpectedValue(Duration.ofMinutes(10)).register(Metrics.globalRegistry);
    }

    static MeterRegistry registry() {
        return Metrics.globalRegistry;
    }
}
