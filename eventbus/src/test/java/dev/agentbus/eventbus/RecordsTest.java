package dev.agentbus.eventbus;

import dev.agentbus.events.input.InputEnvelope;
import dev.agentbus.events.input.SessionInput;
import dev.agentbus.events.session.EventEnvelope;
import dev.agentbus.events.session.SessionEvent;
import dev.agentbus.events.stream.StreamChunk;
import dev.agentbus.events.topics.Topics;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;

class RecordsTest {
    static final Instant T = Instant.parse("2026-11-22T10:00:00Z");

    static String header(ProducerRecord<String, byte[]> r, String key) {
        var h = r.headers().lastHeader(key);
        return h == null ? null : new String(h.value(), StandardCharsets.UTF_8);
    }

    @Test
    void an_event_record_is_keyed_by_session_and_carries_cloudevents_and_trace_headers() {
        var r = Records.event(new EventEnvelope("e-1", "s-1", 3, T, "i-1", "u",
                new SessionEvent.UserMessagePosted("hi")), "orchestrator", TraceHeaders.newTrace());
        assertThat(r.topic()).isEqualTo(Topics.SESSION_EVENTS.name());
        assertThat(r.key()).isEqualTo("s-1");
        assertThat(header(r, "ce_specversion")).isEqualTo("1.0");
        assertThat(header(r, "ce_id")).isEqualTo("e-1");
        assertThat(header(r, "ce_type")).isEqualTo("user_message.posted.v1");
        assertThat(header(r, "ce_source")).isEqualTo("agentbus/orchestrator");
        assertThat(header(r, "ce_time")).isEqualTo("2026-11-22T10:00:00Z");
        assertThat(header(r, "ce_subject")).isEqualTo("s-1");
        assertThat(header(r, "traceparent")).matches("00-[0-9a-f]{32}-[0-9a-f]{16}-01");
    }

    @Test
    void an_input_record_names_its_input_type_and_source() {
        var r = Records.input(new InputEnvelope("i-1", "s-2", T, null, "u", new SessionInput.CancelTurn()),
                "gateway", TraceHeaders.newTrace());
        assertThat(r.topic()).isEqualTo(Topics.SESSION_INPUTS.name());
        assertThat(r.key()).isEqualTo("s-2");
        assertThat(header(r, "ce_type")).isEqualTo("cancel_turn.v1");
        assertThat(header(r, "ce_source")).isEqualTo("agentbus/gateway");
    }

    @Test
    void a_stream_chunk_is_keyed_by_session_and_traced() {
        var r = Records.streamChunk(new StreamChunk("s-3", StreamChunk.Kind.TOKEN, "req", "he", T),
                TraceHeaders.newTrace());
        assertThat(r.topic()).isEqualTo(Topics.SESSION_STREAM.name());
        assertThat(r.key()).isEqualTo("s-3");
        assertThat(header(r, "traceparent")).isNotNull();
    }
}
