package dev.agentbus.telemetry.tracing;

import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.context.annotation.Property;
import io.micronaut.core.bind.annotation.Bindable;

/**
 * Where spans go. Off when neither is set: no span is made at all (records still carry {@code traceparent}).
 *
 * @param otlpEndpoint the standard {@code OTEL_EXPORTER_OTLP_ENDPOINT}: an OTLP receiver (a Collector, Jaeger), e.g.
 *                     {@code http://otel-collector:4318}; spans go to {@code <endpoint>/v1/traces} over HTTP
 *                     (protobuf), or to the endpoint itself over gRPC when the protocol is {@code grpc}
 * @param otlpProtocol the standard {@code OTEL_EXPORTER_OTLP_PROTOCOL}: {@code http/protobuf} (default) or
 *                     {@code grpc}
 * @param serviceName  the standard {@code OTEL_SERVICE_NAME}; empty means the service's own name ({@code gateway},
 *                     {@code orchestrator}, …)
 * @param otlpFile     {@code agentbus.telemetry.otlp-file}: also append spans to this file as OTLP JSON lines, the
 *                     format of the Collector's file exporter (for tests, and for a look without a collector)
 */
@ConfigurationProperties("agentbus.telemetry")
public record TracingSettings(
        @Property(name = "otel.exporter.otlp.endpoint") @Bindable(defaultValue = "") String otlpEndpoint,
        @Property(name = "otel.exporter.otlp.protocol") @Bindable(defaultValue = "http/protobuf") String otlpProtocol,
        @Property(name = "otel.service.name") @Bindable(defaultValue = "") String serviceName,
        @Bindable(defaultValue = "") String otlpFile) {

    public TracingSettings {
        otlpEndpoint = otlpEndpoint == null ? "" : otlpEndpoint.strip();
        otlpProtocol = otlpProtocol == null || otlpProtocol.isBlank() ? "http/protobuf" : otlpProtocol.strip();
        serviceName = serviceName == null ? "" : serviceName.strip();
        otlpFile = otlpFile == null ? "" : otlpFile.strip();
        if (!otlpProtocol.equals("http/protobuf") && !otlpProtocol.equals("grpc")) {
            throw new IllegalArgumentException("otel.exporter.otlp.protocol must be http/protobuf or grpc, not '"
                    + otlpProtocol + "'");
        }
        if (!otlpEndpoint.isEmpty() && !otlpEndpoint.startsWith("http://") && !otlpEndpoint.startsWith("https://")) {
            throw new IllegalArgumentException("otel.exporter.otlp.endpoint must be an http:// or https:// URL, not '"
                    + otlpEndpoint + "'");
        }
    }

    public static TracingSettings off() {
        return new TracingSettings("", "http/protobuf", "", "");
    }

    public boolean enabled() {
        return !otlpEndpoint.isEmpty() || !otlpFile.isEmpty();
    }

    /** Where OTLP over HTTP sends spans: the signal path is added to the base endpoint, as the specification says. */
    public String tracesUrl() {
        if (otlpProtocol.equals("grpc")) {
            return otlpEndpoint;
        }
        return otlpEndpoint.endsWith("/") ? otlpEndpoint + "v1/traces" : otlpEndpoint + "/v1/traces";
    }
}
