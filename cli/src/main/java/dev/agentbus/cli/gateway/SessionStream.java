package dev.agentbus.cli.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentbus.cli.sse.SseEvent;
import dev.agentbus.events.Json;

import java.io.IOException;
import java.io.InputStream;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Follows one session's {@code /events} stream and hands each session event to a listener exactly once, in seq
 * order, however often the connection drops.
 *
 * <p>Why each piece is here:
 * <ul>
 *   <li>Reconnects resume from the last seq seen (query {@code after} and header {@code Last-Event-ID}), so a gateway
 *       restart or a proxy cutting idle connections costs nothing.</li>
 *   <li>Events at or below the last seq are dropped: a gateway may replay a little on reconnect.</li>
 *   <li>A jump in seq (an event missed while the connection was being re-established) is filled from {@code /log},
 *       because seqs have no gaps by construction (invariant 1) and a missing tool result would mislead.</li>
 *   <li>A watchdog closes a connection that has been silent for longer than the gateway's 15 s ping allows: a
 *       half-open TCP connection (laptop sleep, NAT timeout) would otherwise block the read forever.</li>
 *   <li>Token deltas are passed through but not de-duplicated: they have no seq and are not replayed.</li>
 * </ul>
 */
public final class SessionStream {

    /** Receives what the stream carries. Returning non-null from {@link #onEvent} ends the stream with that value. */
    public interface Listener {
        Integer onEvent(JsonNode envelope);

        default void onDelta(JsonNode delta) {
        }

        default void onWarning(String message) {
        }
    }

    private static final Duration DEFAULT_IDLE_TIMEOUT = Duration.ofSeconds(45);
    private static final Duration DEFAULT_BACKOFF = Duration.ofMillis(250);
    private static final Duration MAX_BACKOFF = Duration.ofSeconds(5);
    /** With the backoff doubling to 5 s, about 45 s without progress: longer than a gateway restart takes. */
    private static final int DEFAULT_MAX_FAILURES = 12;
    /** A connection that stayed up this long was healthy, whatever it carried (the gateway pings every 15 s). */
    private static final Duration HEALTHY_CONNECTION = Duration.ofSeconds(20);

    private final GatewayClient gateway;
    private final String sessionId;
    private final Duration idleTimeout;
    private final Duration backoff;
    private final int maxFailures;
    private final CountDownLatch stopped = new CountDownLatch(1);

    private volatile long lastSeq;
    private volatile SseConnection current;
    private volatile CompletableFuture<HttpResponse<InputStream>> pending;

    public SessionStream(GatewayClient gateway, String sessionId, long afterSeq) {
        this(gateway, sessionId, afterSeq, DEFAULT_IDLE_TIMEOUT, DEFAULT_BACKOFF, DEFAULT_MAX_FAILURES);
    }

    public SessionStream(GatewayClient gateway, String sessionId, long afterSeq, Duration idleTimeout,
                         Duration backoff, int maxFailures) {
        this.gateway = gateway;
        this.sessionId = sessionId;
        this.lastSeq = afterSeq;
        this.idleTimeout = idleTimeout;
        this.backoff = backoff;
        this.maxFailures = maxFailures;
    }

    /** Starts opening the first connection now, so events and deltas produced meanwhile are not missed. */
    public void connectAhead() {
        if (pending == null) {
            pending = gateway.events().open(sessionId, lastSeq, false);
        }
    }

    /** The seq of the last event handed to the listener (or the starting point). */
    public long lastSeq() {
        return lastSeq;
    }

    /** Stops following, from any thread: {@link #follow} returns null soon after. */
    public void stop() {
        stopped.countDown();
        SseConnection c = current;
        if (c != null) {
            c.close();
        }
        CompletableFuture<HttpResponse<InputStream>> p = pending;
        if (p != null) {
            p.cancel(true);
        }
    }

    public boolean isStopped() {
        return stopped.getCount() == 0;
    }

    /**
     * Follows until the listener returns a value (returned here), {@link #stop()} is called (returns null), or the
     * gateway cannot be used (throws). Failures are retried with backoff; a 4xx is not retried, since asking again
     * with the same token for the same session will not change the answer.
     */
    public Integer follow(Listener listener) {
        ScheduledExecutorService watchdog = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "agentbus-sse-watchdog");
            t.setDaemon(true);
            return t;
        });
        long checkEvery = Math.max(50, idleTimeout.toMillis() / 3);
        watchdog.scheduleWithFixedDelay(() -> {
            SseConnection c = current;
            if (c != null && c.idleNanos() > idleTimeout.toNanos()) {
                c.close(); // the reader sees end-of-stream and reconnects
            }
        }, checkEvery, checkEvery, TimeUnit.MILLISECONDS);
        try {
            return followLoop(listener);
        } finally {
            watchdog.shutdownNow();
        }
    }

    private Integer followLoop(Listener listener) {
        int failures = 0;
        long retryMillis = -1;
        GatewayException lastFailure = null;
        boolean resume = false;
        while (!isStopped()) {
            CompletableFuture<HttpResponse<InputStream>> opening =
                    pending != null ? pending : gateway.events().open(sessionId, lastSeq, resume);
            resume = true; // every later connection continues from what was already handed over
            pending = opening;
            SseConnection connection;
            try {
                connection = gateway.events().await(opening, sessionId);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return null;
            } catch (GatewayException e) {
                if (isStopped()) {
                    return null;
                }
                if (!e.retryable()) {
                    throw e;
                }
                lastFailure = e;
                failures++;
                if (failures > maxFailures) {
                    throw e;
                }
                pause(failures, retryMillis);
                continue;
            } finally {
                pending = null;
            }
            current = connection;
            if (isStopped()) {
                connection.close();
                return null;
            }
            long seqAtConnect = lastSeq;
            long connectedAt = System.nanoTime();
            try {
                SseEvent event;
                while ((event = connection.next()) != null) {
                    Integer result = dispatch(event, listener);
                    if (result != null) {
                        return result;
                    }
                    if (isStopped()) {
                        return null;
                    }
                }
            } catch (IOException dropped) {
                // the connection broke mid-stream; reconnect below
            } finally {
                retryMillis = connection.retryMillis();
                current = null;
                connection.close();
            }
            if (isStopped()) {
                return null;
            }
            // The stream ended without the listener being done: the connection dropped. Only real progress (a new
            // event, or a connection that stayed up past a few pings) forgives earlier failures; replayed events,
            // deltas and pings do not, or a gateway that accepts, replays and closes would be retried forever.
            boolean progressed = lastSeq > seqAtConnect
                    || System.nanoTime() - connectedAt > HEALTHY_CONNECTION.toNanos();
            failures = progressed ? 1 : failures + 1;
            if (progressed) {
                lastFailure = null; // an old connect failure is not why a later stream keeps closing
            }
            if (failures > maxFailures) {
                throw lastFailure != null ? lastFailure : GatewayException.unreachable(gateway.baseUrl(),
                        new IOException("the event stream of session " + sessionId + " keeps closing"));
            }
            pause(failures, retryMillis);
        }
        return null;
    }

    private Integer dispatch(SseEvent event, Listener listener) {
        switch (event.event()) {
            case "ping" -> {
                return null;
            }
            case "delta" -> {
                JsonNode delta = parse(event.data());
                if (delta != null) {
                    listener.onDelta(delta);
                }
                return null;
            }
            default -> {
                JsonNode envelope = parse(event.data());
                if (envelope == null || !envelope.path("seq").canConvertToLong()) {
                    listener.onWarning("skipped an unreadable " + event.event() + " event from the stream");
                    return null;
                }
                long seq = envelope.get("seq").asLong();
                if (seq <= lastSeq) {
                    return null; // already handed over before a reconnect
                }
                if (seq > lastSeq + 1) {
                    Integer result = fillGap(seq, listener);
                    if (result != null) {
                        return result;
                    }
                }
                lastSeq = seq;
                return listener.onEvent(envelope);
            }
        }
    }

    /** Hands over the events between lastSeq and {@code before} from the durable log. */
    private Integer fillGap(long before, Listener listener) {
        try {
            for (String line : gateway.sessions().log(sessionId)) {
                JsonNode envelope = parse(line);
                if (envelope == null || !envelope.path("seq").canConvertToLong()) {
                    continue;
                }
                long seq = envelope.get("seq").asLong();
                if (seq > lastSeq && seq < before) {
                    lastSeq = seq;
                    Integer result = listener.onEvent(envelope);
                    if (result != null) {
                        return result;
                    }
                }
            }
        } catch (GatewayException e) {
            listener.onWarning("events " + (lastSeq + 1) + ".." + (before - 1) + " were missed and could not be "
                    + "read from the log: " + e.getMessage());
        }
        if (lastSeq < before - 1) {
            listener.onWarning("events " + (lastSeq + 1) + ".." + (before - 1) + " are missing from the stream");
        }
        return null;
    }

    private void pause(int failures, long serverRetryMillis) {
        long base = serverRetryMillis >= 0 ? serverRetryMillis : backoff.toMillis();
        long millis = Math.min(MAX_BACKOFF.toMillis(), base * (1L << Math.min(failures - 1, 10)));
        try {
            stopped.await(millis, TimeUnit.MILLISECONDS); // returns early when stopped
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            stop();
        }
    }

    private static JsonNode parse(String json) {
        try {
            JsonNode node = Json.mapper().readTree(json);
            return node != null && node.isObject() ? node : null;
        } catch (IOException notJson) {
            return null;
        }
    }
}
