package dev.agentbus.telemetry;

import dev.agentbus.telemetry.management.ManagementServer;
import dev.agentbus.telemetry.management.ManagementSettings;
import dev.agentbus.telemetry.metrics.MetricsSetup;
import dev.agentbus.telemetry.tracing.TracingSettings;
import dev.agentbus.telemetry.tracing.TracingSetup;
import io.micronaut.context.annotation.Context;
import io.micronaut.context.annotation.Property;
import io.micronaut.context.annotation.Requires;
import io.micronaut.core.annotation.Order;
import io.micronaut.core.order.Ordered;
import jakarta.annotation.PreDestroy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * Starts a service's telemetry with its application context, before its Kafka loops (it is a {@code @Context} bean
 * with no dependencies on them): the tracer when an exporter is configured, the Prometheus registry, and the
 * management port when one is set. Every service has it by having this module on its class path.
 */
@Context
@Requires(property = "agentbus.service")
// First of the eager beans: a meter registered before the Prometheus registry joins the global one would be missed.
@Order(Ordered.HIGHEST_PRECEDENCE)
public class TelemetryRuntime {
    private static final Logger LOG = LoggerFactory.getLogger(TelemetryRuntime.class);

    private final TracingSetup tracing;
    private final ManagementServer management;

    public TelemetryRuntime(@Property(name = "agentbus.service") String service, TracingSettings tracingSettings,
                            ManagementSettings managementSettings) {
        MetricsSetup.install(service);
        tracing = TracingSetup.install(tracingSettings, service);
        if (tracing != null) {
            LOG.info("{}: tracing on ({}{})", service,
                    tracingSettings.otlpEndpoint().isEmpty() ? "" : "OTLP " + tracingSettings.tracesUrl() + " ",
                    tracingSettings.otlpFile().isEmpty() ? "" : "file " + tracingSettings.otlpFile());
        }
        management = "gateway".equals(service) || managementSettings.port() == 0 ? null
                : startManagement(service, managementSettings);
    }

    private static ManagementServer startManagement(String service, ManagementSettings settings) {
        try {
            ManagementServer server = new ManagementServer(settings.host(), settings.port(), () -> null,
                    MetricsSetup::scrape).start();
            LOG.info("{}: /health and /metrics on port {}", service, server.port());
            return server;
        } catch (IOException e) {
            throw new UncheckedIOException("agentbus.management.port " + settings.port() + " cannot be served on "
                    + settings.host(), e);
        }
    }

    @PreDestroy
    void stop() {
        if (management != null) {
            management.close();
        }
        if (tracing != null) {
            tracing.close();
        }
    }
}
