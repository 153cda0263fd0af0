package dev.agentbus.eventbus;

import dev.agentbus.events.codec.EventCodec;
import dev.agentbus.events.input.InputEnvelope;
import dev.agentbus.events.session.EventEnvelope;
import dev.agentbus.events.stream.StreamChunk;
import dev.agentbus.events.topics.Topics;
import io.opentelemetry.api.trace.SpanContext;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Headers;

import java.nio.charset.StandardCharsets;
import java.time.Instant;

/**
 * The Kafka records of the session topics, built in one place so every one is keyed by session id (invariant 7),
 * carries {@code traceparent} (invariant 9) and, for events and inputs, the CloudEvents binary-mode headers
 * ({@code ce_specversion}, {@code ce_id}, {@code ce_type}, {@code ce_source}, {@code ce_time}, {@code ce_subject})
 * so standard tools can read the topics without knowing our envelope.
 */
public final class Records {
    private Records() {
    }

    public static ProducerRecord<String, byte[]> event(EventEnvelope e, String source, SpanContext trace) {
        var record = new ProducerRecord<>(Topics.SESSION_EVENTS.name(), e.sessionId(), EventCodec.encodeEvent(e));
        cloudEvent(record.headers(), e.id(), EventCodec.typeOf(e.event()), source, e.time(), e.sessionId());
        TraceHeaders.inject(trace, record.headers());
        return record;
    }

    public static ProducerRecord<String, byte[]> input(InputEnvelope e, String source, SpanContext trace) {
        var record = new ProducerRecord<>(Topics.SESSION_INPUTS.name(), e.sessionId(), EventCodec.encodeInput(e));
        cloudEvent(record.headers(), e.id(), EventCodec.typeOf(e.input()), source, e.time(), e.sessionId());
        TraceHeaders.inject(trace, record.headers());
        return record;
    }

    public static ProducerRecord<String, byte[]> streamChunk(StreamChunk chunk, SpanContext trace) {
        var record = new ProducerRecord<>(Topics.SESSION_STREAM.name(), chunk.sessionId(),
                EventCodec.encodeValue(chunk));
        TraceHeaders.inject(trace, record.headers());
        return record;
    }

    private static void cloudEvent(Headers headers, String id, String type, String source, Instant time,
                                   String subject) {
        put(headers, "ce_specversion", "1.0");
        put(headers, "ce_id", id);
        put(headers, "ce_type", type);
        put(headers, "ce_source", "agentbus/" + source);
        if (time != null) {
            put(headers, "ce_time", time.toString());
        }
        put(headers, "ce_subject", subject);
        put(headers, "content-type", "application/json");
    }

    private static void put(Headers headers, String key, String value) {
        headers.add(key, value.getBytes(StandardCharsets.UTF_8));
    }
}
