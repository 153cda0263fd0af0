package dev.agentbus.telemetry.logging;

import io.opentelemetry.api.trace.SpanContext;
import org.slf4j.MDC;

/**
 * The session id and trace id in the logging context (MDC) while a session's record is handled, so every log line
 * it causes carries them (the JSON log format prints them as fields: see docs/operations.md#telemetry). Closing it
 * puts back what was there before, for handlers that nest.
 */
public final class LogContext implements AutoCloseable {
    public static final String SESSION_ID = "session_id";
    public static final String TRACE_ID = "trace_id";

    private final String previousSession;
    private final String previousTrace;

    private LogContext(String sessionId, String traceId) {
        previousSession = MDC.get(SESSION_ID);
        previousTrace = MDC.get(TRACE_ID);
        put(SESSION_ID, sessionId);
        put(TRACE_ID, traceId);
    }

    public static LogContext of(String sessionId, SpanContext trace) {
        return new LogContext(sessionId, trace != null && trace.isValid() ? trace.getTraceId() : null);
    }

    private static void put(String key, String value) {
        if (value == null) {
            MDC.remove(key);
        } else {
            MDC.put(key, value);
        }
    }

    @Override
    public void close() {
        put(SESSION_ID, previousSession);
        put(TRACE_ID, previousTrace);
    }
}
