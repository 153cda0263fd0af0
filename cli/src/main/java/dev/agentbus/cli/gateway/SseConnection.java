package dev.agentbus.cli.gateway;

import dev.agentbus.cli.sse.SseEvent;
import dev.agentbus.cli.sse.SseParser;

import java.io.BufferedReader;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

/** One open {@code /events} response, read event by event. */
public final class SseConnection implements Closeable {
    private final InputStream body;
    private final BufferedReader reader;
    private final SseParser parser = new SseParser();
    private volatile long lastActivityNanos = System.nanoTime();

    SseConnection(InputStream body) {
        this.body = body;
        // The event-stream media type is always UTF-8 (the spec says so; no charset parameter to honour).
        this.reader = new BufferedReader(new InputStreamReader(body, StandardCharsets.UTF_8));
    }

    /** The next event, or null when the server closed the stream (or {@link #close()} was called). */
    public SseEvent next() throws IOException {
        String line;
        while ((line = reader.readLine()) != null) {
            lastActivityNanos = System.nanoTime();
            SseEvent event = parser.accept(line);
            if (event != null) {
                return event;
            }
        }
        return null;
    }

    /** Nanoseconds since the server last sent anything, pings included. */
    public long idleNanos() {
        return System.nanoTime() - lastActivityNanos;
    }

    public long retryMillis() {
        return parser.retryMillis();
    }

    /**
     * Safe from any thread. Closes the response body itself, not the reader: a reader is locked by the thread
     * blocked in readLine(), while closing the HttpClient body stream wakes that thread with end-of-stream.
     */
    @Override
    public void close() {
        try {
            body.close();
        } catch (IOException ignored) {
            // closing a broken connection can fail; it is closed either way
        }
    }
}
