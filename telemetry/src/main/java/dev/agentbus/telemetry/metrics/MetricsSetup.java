package dev.agentbus.telemetry.metrics;

import io.micrometer.core.instrument.Metrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;

/**
 * The Prometheus registry of this JVM, added to Micrometer's global registry once (the standalone JVM runs every
 * service in one process, with one registry), with the JVM's own metrics and a {@code service} tag on every series.
 */
public final class MetricsSetup {
    private static PrometheusMeterRegistry registry;

    private MetricsSetup() {
    }

    public static synchronized PrometheusMeterRegistry install(String service) {
        if (registry == null) {
            PrometheusMeterRegistry r = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
            r.config().commonTags("service", service);
            new JvmMemoryMetrics().bindTo(r);
            new JvmGcMetrics().bindTo(r);
            new JvmThreadMetrics().bindTo(r);
            new ProcessorMetrics().bindTo(r);
            new UptimeMetrics().bindTo(r);
            Metrics.addRegistry(r);
            registry = r;
        }
        return registry;
    }

    /** The text {@code /metrics} serves: Prometheus's exposition format. */
    public static String scrape() {
        PrometheusMeterRegistry r;
        synchronized (MetricsSetup.class) {
            r = registry;
        }
        return r == null ? "" : r.scrape();
    }
}
