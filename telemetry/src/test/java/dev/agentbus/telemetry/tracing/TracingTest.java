package dev.agentbus.telemetry.tracing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentbus.eventbus.TraceHeaders;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanKind;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Spans as children of a record's traceparent, written as OTLP JSON lines; and nothing at all when off. */
class TracingTest {

    @Test
    void off_no_span_is_made_but_records_still_continue_the_trace_with_a_new_span_id() {
        assertThat(TracingSetup.install(TracingSettings.off(), "orchestrator")).isNull();
        assertThat(Tracing.on()).isFalse();
        RecordHeaders incoming = new RecordHeaders();
        SpanContext parent = TraceHeaders.newTrace();
        TraceHeaders.inject(parent, incoming);

        try (Traced step = Tracing.consume("orchestrator step", incoming)) {
            assertThat(step.context().getTraceId()).isEqualTo(parent.getTraceId());
            assertThat(step.context().getSpanId()).isNotEqualTo(parent.getSpanId());
        }
        try (Traced root = Tracing.root("gateway send", SpanKind.PRODUCER)) {
            assertThat(root.context().isValid()).isTrue();
            assertThat(root.traceId()).isNotEqualTo(parent.getTraceId());
        }
    }

    @Test
    void on_spans_go_to_the_file_as_otlp_json_with_the_service_name_and_parent_links(@TempDir Path dir)
            throws Exception {
        Path file = dir.resolve("spans.jsonl");
        SpanContext gateway;
        SpanContext step;
        SpanContext modelCall;
        try (TracingSetup setup = TracingSetup.install(new TracingSettings("", "http/protobuf", "", file.toString()),
                "orchestrator")) {
            assertThat(setup).isNotNull();
            assertThat(Tracing.on()).isTrue();
            // A second service in the same JVM (the standalone one) shares the first one's tracer.
            assertThat(TracingSetup.install(new TracingSettings("", "http/protobuf", "", file.toString()),
                    "scheduler")).isNull();
            gateway = TraceHeaders.newTrace();
            RecordHeaders incoming = new RecordHeaders();
            TraceHeaders.inject(gateway, incoming);
            try (Traced s = Tracing.consume("orchestrator step PostUserMessage", incoming)
                    .attribute("agentbus.session_id", "s1")) {
                step = s.context();
                try (Traced m = Tracing.child("orchestrator model call", SpanKind.CLIENT, step).failed("timed out")) {
                    modelCall = m.context();
                }
            }
        }
        assertThat(Tracing.on()).isFalse(); // closed: uninstalled, after exporting what was buffered

        List<JsonNode> spans = new ArrayList<>();
        for (String line : Files.readAllLines(file)) {
            JsonNode request = new ObjectMapper().readTree(line);
            for (JsonNode rs : request.path("resourceSpans")) {
                assertThat(rs.path("resource").path("attributes").toString())
                        .contains("\"service.name\"").contains("\"orchestrator\"");
                rs.path("scopeSpans").forEach(ss -> ss.path("spans").forEach(spans::add));
            }
        }
        assertThat(spans).hasSize(2);
        JsonNode stepSpan = spans.stream().filter(s -> s.path("name").asText().startsWith("orchestrator step"))
                .findFirst().orElseThrow();
        JsonNode callSpan = spans.stream().filter(s -> s.path("name").asText().equals("orchestrator model call"))
                .findFirst().orElseThrow();
        assertThat(stepSpan.path("traceId").asText()).isEqualTo(gateway.getTraceId());
        assertThat(stepSpan.path("parentSpanId").asText()).isEqualTo(gateway.getSpanId());
        assertThat(stepSpan.path("spanId").asText()).isEqualTo(step.getSpanId());
        assertThat(stepSpan.path("attributes").toString()).contains("agentbus.session_id").contains("s1");
        assertThat(callSpan.path("parentSpanId").asText()).isEqualTo(step.getSpanId());
        assertThat(callSpan.path("spanId").asText()).isEqualTo(modelCall.getSpanId());
        assertThat(callSpan.path("status").toString()).contains("timed out");
    }

    @Test
    void settings_are_checked_and_name_the_otlp_traces_url() {
        assertThat(new TracingSettings("http://collector:4318", "", "", "").tracesUrl())
                .isEqualTo("http://collector:4318/v1/traces");
        assertThat(new TracingSettings("http://collector:4317", "grpc", "", "").tracesUrl())
                .isEqualTo("http://collector:4317");
        assertThat(new TracingSettings("", "", "", "").enabled()).isFalse();
        assertThatThrownBy(() -> new TracingSettings("collector:4318", "", "", ""))
                .hasMessageContaining("otel.exporter.otlp.endpoint must be an http:// or https:// URL");
        assertThatThrownBy(() -> new TracingSettings("http://c:4318", "http/json", "", ""))
                .hasMessageContaining("otel.exporter.otlp.protocol must be http/protobuf or grpc");
    }

    @Test
    void open_spans_end_on_another_thread_by_key() throws Exception {
        OpenSpans open = new OpenSpans();
        open.put("s1/c1", Tracing.root("sandbox-worker tool shell", SpanKind.CONSUMER));
        Thread t = Thread.ofVirtual().start(() -> open.end("s1/c1", "exit 1"));
        t.join();
        assertThat(open.size()).isZero();
        open.end("s1/c1", null); // ending twice is harmless
    }
}
