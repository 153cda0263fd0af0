package dev.agentbus.eventbus;

import io.opentelemetry.api.trace.SpanContext;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

class TraceHeadersTest {
    private static final String TRACEPARENT_FORMAT = "^00-[0-9a-f]{32}-[0-9a-f]{16}-01$";
    private static final String PARENT_TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
    private static final String PARENT_SPAN = "00f067aa0ba902b7";

    private static Headers headersWith(String traceparent) {
        Headers headers = new RecordHeaders();
        headers.add(TraceHeaders.TRACEPARENT, traceparent.getBytes(StandardCharsets.UTF_8));
        return headers;
    }

    @Test
    void inject_writes_a_valid_w3c_traceparent_for_a_new_trace() {
        SpanContext context = TraceHeaders.newTrace();
        Headers headers = new RecordHeaders();

        TraceHeaders.inject(context, headers);

        String traceparent = TraceHeaders.traceparentOf(headers);
        assertThat(traceparent).matches(TRACEPARENT_FORMAT);
        assertThat(traceparent).isEqualTo("00-" + context.getTraceId() + "-" + context.getSpanId() + "-01");
    }

    @Test
    void a_new_trace_has_valid_non_zero_ids_and_is_sampled() {
        SpanContext context = TraceHeaders.newTrace();

        assertThat(context.isValid()).isTrue();
        assertThat(context.getTraceId()).matches("[0-9a-f]{32}").isNotEqualTo("0".repeat(32));
        assertThat(context.getSpanId()).matches("[0-9a-f]{16}").isNotEqualTo("0".repeat(16));
        assertThat(context.isSampled()).isTrue();
    }

    @Test
    void two_new_traces_do_not_share_a_trace_id() {
        assertThat(TraceHeaders.newTrace().getTraceId()).isNotEqualTo(TraceHeaders.newTrace().getTraceId());
    }

    @Test
    void work_caused_by_a_record_continues_its_trace_with_a_new_span() {
        Headers incoming = headersWith("00-" + PARENT_TRACE + "-" + PARENT_SPAN + "-01");

        SpanContext child = TraceHeaders.continueFrom(incoming);

        assertThat(child.isValid()).isTrue();
        assertThat(child.getTraceId()).isEqualTo(PARENT_TRACE);
        assertThat(child.getSpanId()).isNotEqualTo(PARENT_SPAN);
    }

    @Test
    void a_trace_survives_a_chain_of_records_across_services() {
        SpanContext first = TraceHeaders.newTrace();
        Headers input = new RecordHeaders();
        TraceHeaders.inject(first, input);

        SpanContext second = TraceHeaders.continueFrom(input);
        Headers event = new RecordHeaders();
        TraceHeaders.inject(second, event);
        SpanContext third = TraceHeaders.continueFrom(event);

        assertThat(third.getTraceId()).isEqualTo(first.getTraceId());
        assertThat(third.getSpanId()).isNotIn(first.getSpanId(), second.getSpanId());
        assertThat(TraceHeaders.traceparentOf(event)).matches(TRACEPARENT_FORMAT);
    }

    @Test
    void continuing_from_no_headers_starts_a_new_trace() {
        SpanContext context = TraceHeaders.continueFrom(null);

        assertThat(context.isValid()).isTrue();
        assertThat(context.getTraceId()).matches("[0-9a-f]{32}");
    }

    @Test
    void continuing_from_headers_without_traceparent_starts_a_new_trace() {
        Headers incoming = new RecordHeaders();
        incoming.add("ce_type", "user_message.posted.v1".getBytes(StandardCharsets.UTF_8));

        SpanContext context = TraceHeaders.continueFrom(incoming);

        assertThat(context.isValid()).isTrue();
        assertThat(context.getTraceId()).matches("[0-9a-f]{32}").isNotEqualTo("0".repeat(32));
    }

    @Test
    void continuing_from_a_malformed_traceparent_starts_a_new_trace() {
        SpanContext context = TraceHeaders.continueFrom(headersWith("not-a-traceparent"));

        assertThat(context.isValid()).isTrue();
        assertThat(context.getTraceId()).matches("[0-9a-f]{32}");
    }

    @Test
    void inject_replaces_an_existing_traceparent_instead_of_adding_a_second_one() {
        Headers headers = headersWith("00-" + PARENT_TRACE + "-" + PARENT_SPAN + "-01");
        SpanContext context = TraceHeaders.newTrace();

        TraceHeaders.inject(context, headers);

        assertThat(headers.headers(TraceHeaders.TRACEPARENT)).hasSize(1);
        assertThat(TraceHeaders.traceparentOf(headers)).contains(context.getTraceId());
    }

    @Test
    void inject_leaves_other_headers_alone() {
        Headers headers = new RecordHeaders();
        headers.add("ce_type", "x.v1".getBytes(StandardCharsets.UTF_8));

        TraceHeaders.inject(TraceHeaders.newTrace(), headers);

        assertThat(new String(headers.lastHeader("ce_type").value(), StandardCharsets.UTF_8)).isEqualTo("x.v1");
    }

    @Test
    void traceparent_of_headers_without_one_is_null() {
        assertThat(TraceHeaders.traceparentOf(new RecordHeaders())).isNull();
        assertThat(TraceHeaders.traceparentOf(null)).isNull();
    }
}
