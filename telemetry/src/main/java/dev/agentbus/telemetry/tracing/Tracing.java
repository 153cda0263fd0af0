package dev.agentbus.telemetry.tracing;

import dev.agentbus.eventbus.TraceHeaders;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanBuilder;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import org.apache.kafka.common.header.Headers;

/**
 * Where the services start their spans. A span is a child of the {@code traceparent} of the record that caused the
 * work, and the records the work sends carry the new span's context ({@link Traced#context()}), so one user turn is
 * one trace across the five services.
 *
 * <p>Static, because the services make their Kafka loops and workers by hand, not as beans: the tracer is installed
 * once per JVM when the service starts ({@link TracingSetup}). Until then, or when nothing is configured, no span is
 * made: only ids are minted, as {@link TraceHeaders} always did, so records still carry {@code traceparent} at no
 * other cost.
 */
public final class Tracing {
    private static volatile Tracer tracer;

    private Tracing() {
    }

    static void install(Tracer t) {
        tracer = t;
    }

    static void uninstall() {
        tracer = null;
    }

    /** Whether spans are recorded (some exporter is configured). */
    public static boolean on() {
        return tracer != null;
    }

    /** Work caused by a consumed record: a child of the record's {@code traceparent}, or a new trace without one. */
    public static Traced consume(String name, Headers incoming) {
        return start(name, SpanKind.CONSUMER, TraceHeaders.parentOf(incoming));
    }

    /** Work that starts a trace (a person's request). */
    public static Traced root(String name, SpanKind kind) {
        return start(name, kind, SpanContext.getInvalid());
    }

    /** Work inside other work (a model call within a step): a child of {@code parent}, or a new trace if invalid. */
    public static Traced child(String name, SpanKind kind, SpanContext parent) {
        return start(name, kind, parent == null ? SpanContext.getInvalid() : parent);
    }

    private static Traced start(String name, SpanKind kind, SpanContext parent) {
        Tracer t = tracer;
        if (t == null) {
            return new Traced(Span.getInvalid(), TraceHeaders.childOf(parent));
        }
        SpanBuilder b = t.spanBuilder(name).setSpanKind(kind);
        if (parent.isValid()) {
            b.setParent(Context.root().with(Span.wrap(parent)));
        } else {
            b.setNoParent();
        }
        Span span = b.startSpan();
        return new Traced(span, span.getSpanContext());
    }
}
