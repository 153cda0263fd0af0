package dev.agentbus.telemetry.tracing;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.StatusCode;

/**
 * One unit of work being traced: a span when tracing is on, else only the minted ids records carry on. Either way
 * {@link #context()} is what the records this work sends must carry ({@code traceparent}), so the next service's
 * span is a child of this one. Ended by {@link #close()}, on any thread.
 */
public final class Traced implements AutoCloseable {
    private final Span span;
    private final SpanContext context;

    Traced(Span span, SpanContext context) {
        this.span = span;
        this.context = context;
    }

    /** The context to put on the records this work causes. */
    public SpanContext context() {
        return context;
    }

    public String traceId() {
        return context.getTraceId();
    }

    public Traced attribute(String key, String value) {
        if (value != null) {
            span.setAttribute(key, value);
        }
        return this;
    }

    public Traced attribute(String key, long value) {
        span.setAttribute(key, value);
        return this;
    }

    /** Marks the span as failed, with why. */
    public Traced failed(String why) {
        span.setStatus(StatusCode.ERROR, why == null ? "" : why);
        return this;
    }

    @Override
    public void close() {
        span.end();
    }
}
