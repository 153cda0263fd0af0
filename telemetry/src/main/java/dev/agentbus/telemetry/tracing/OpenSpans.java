package dev.agentbus.telemetry.tracing;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Spans of work that starts on one thread and ends on another, by key: a tool call is taken on by the worker's loop
 * (its records must already carry the span's context) and run later on a thread of its own. A span whose work never
 * ends here (its partition moved away) is dropped with {@link #forget}, unexported.
 */
public final class OpenSpans {
    private final Map<String, Traced> open = new ConcurrentHashMap<>();

    public Traced put(String key, Traced span) {
        open.put(key, span);
        return span;
    }

    /** Ends the span of {@code key}, if one is open, marked failed with {@code failure} unless that is null. */
    public void end(String key, String failure) {
        Traced span = open.remove(key);
        if (span != null) {
            if (failure != null) {
                span.failed(failure);
            }
            span.close();
        }
    }

    public void forget(String key) {
        open.remove(key);
    }

    public int size() {
        return open.size();
    }
}
