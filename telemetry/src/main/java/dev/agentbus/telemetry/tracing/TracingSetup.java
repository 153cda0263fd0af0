package dev.agentbus.telemetry.tracing;

import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.exporter.otlp.http.trace.OtlpHttpSpanExporter;
import io.opentelemetry.exporter.otlp.trace.OtlpGrpcSpanExporter;
import io.opentelemetry.sdk.resources.Resource;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.export.BatchSpanProcessor;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import io.opentelemetry.api.common.AttributeKey;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Installs the OpenTelemetry SDK's tracer for {@link Tracing}, once per JVM, with the exporters the settings name;
 * nothing at all when they name none. {@link #close()} flushes what is still buffered and uninstalls it.
 */
public final class TracingSetup implements AutoCloseable {
    private static final AttributeKey<String> SERVICE_NAME = AttributeKey.stringKey("service.name");
    private static final Object LOCK = new Object();
    private static TracingSetup installed;

    private final SdkTracerProvider provider;

    private TracingSetup(SdkTracerProvider provider) {
        this.provider = provider;
    }

    /**
     * The tracer for this JVM, or null when the settings configure no exporter or one is installed already (the
     * standalone JVM runs every service: the first to start names them all, unless {@code OTEL_SERVICE_NAME} does).
     */
    public static TracingSetup install(TracingSettings settings, String service) {
        if (!settings.enabled()) {
            return null;
        }
        synchronized (LOCK) {
            if (installed != null) {
                return null;
            }
            List<SpanExporter> exporters = new ArrayList<>();
            if (!settings.otlpEndpoint().isEmpty()) {
                exporters.add(settings.otlpProtocol().equals("grpc")
                        ? OtlpGrpcSpanExporter.builder().setEndpoint(settings.tracesUrl()).build()
                        : OtlpHttpSpanExporter.builder().setEndpoint(settings.tracesUrl()).build());
            }
            if (!settings.otlpFile().isEmpty()) {
                try {
                    exporters.add(new OtlpJsonFileExporter(Path.of(settings.otlpFile())));
                } catch (IOException e) {
                    throw new UncheckedIOException("agentbus.telemetry.otlp-file " + settings.otlpFile()
                            + " cannot be written", e);
                }
            }
            String name = settings.serviceName().isEmpty() ? service : settings.serviceName();
            SdkTracerProvider provider = SdkTracerProvider.builder()
                    .setResource(Resource.getDefault().merge(Resource.create(Attributes.of(SERVICE_NAME, name))))
                    // Spans leave in batches a second apart at most: a trace is complete soon after a turn ends.
                    .addSpanProcessor(BatchSpanProcessor.builder(SpanExporter.composite(exporters))
                            .setScheduleDelay(Duration.ofSeconds(1)).build())
                    .build();
            Tracing.install(provider.get("dev.agentbus"));
            installed = new TracingSetup(provider);
            return installed;
        }
    }

    /** Exports what is buffered and stops recording spans. */
    @Override
    public void close() {
        synchronized (LOCK) {
            Tracing.uninstall();
            provider.close();
            if (installed == this) {
                installed = null;
            }
        }
    }
}
