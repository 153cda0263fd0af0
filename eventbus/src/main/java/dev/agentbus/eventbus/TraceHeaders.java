package dev.agentbus.eventbus;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanId;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceId;
import io.opentelemetry.api.trace.TraceState;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.propagation.TextMapGetter;
import io.opentelemetry.context.propagation.TextMapSetter;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * W3C {@code traceparent} on every Kafka record (invariant 9), through the OpenTelemetry API's own propagator.
 * A record caused by another continues its trace (same trace id, new span id), so one user turn is one trace
 * across all services. Works with or without an OpenTelemetry SDK installed: ids are minted here when no span is
 * active, so the header is always there for a collector to pick up.
 */
public final class TraceHeaders {
    public static final String TRACEPARENT = "traceparent";

    private static final TextMapSetter<Headers> SETTER =
            (headers, key, value) -> {
                headers.remove(key);
                headers.add(key, value.getBytes(StandardCharsets.UTF_8));
            };
    private static final TextMapGetter<Headers> GETTER = new TextMapGetter<>() {
        @Override
        public Iterable<String> keys(Headers headers) {
            List<String> keys = new ArrayList<>();
            for (Header h : headers) {
                keys.add(h.key());
            }
            return keys;
        }

        @Override
        public String get(Headers headers, String key) {
            Header h = headers == null ? null : headers.lastHeader(key);
            return h == null ? null : new String(h.value(), StandardCharsets.UTF_8);
        }
    };

    private TraceHeaders() {
    }

    /** A context for work caused by a record with these headers: its trace, or a new one if it had none. */
    public static SpanContext continueFrom(Headers incoming) {
        return childOf(parentOf(incoming));
    }

    /** The span context a record with these headers carries, or an invalid one if it has none. */
    public static SpanContext parentOf(Headers incoming) {
        return incoming == null ? SpanContext.getInvalid()
                : Span.fromContext(W3CTraceContextPropagator.getInstance()
                .extract(Context.root(), incoming, GETTER)).getSpanContext();
    }

    /** Minted ids for work caused by {@code parent}: its trace with a new span id, or a new trace if it is invalid. */
    public static SpanContext childOf(SpanContext parent) {
        ThreadLocalRandom r = ThreadLocalRandom.current();
        String traceId = parent.isValid() ? parent.getTraceId() : TraceId.fromLongs(r.nextLong(), r.nextLong() | 1);
        return SpanContext.create(traceId, SpanId.fromLong(r.nextLong() | 1), TraceFlags.getSampled(),
                TraceState.getDefault());
    }

    /** A brand-new trace, for work that starts here (a person's HTTP request). */
    public static SpanContext newTrace() {
        return continueFrom(null);
    }

    public static void inject(SpanContext context, Headers headers) {
        W3CTraceContextPropagator.getInstance().inject(Context.root().with(Span.wrap(context)), headers, SETTER);
    }

    public static String traceparentOf(Headers headers) {
        return GETTER.get(headers, TRACEPARENT);
    }
}
