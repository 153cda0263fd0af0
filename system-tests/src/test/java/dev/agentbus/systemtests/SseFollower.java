package dev.agentbus.systemtests;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A client attached to a session's SSE stream the way a browser is: when the connection drops (the gateway was
 * killed, the broker is away) it reconnects with {@code Last-Event-ID} set to the last id it saw, until it is
 * closed. It keeps every log event it received, so a test can check each one arrived exactly once across faults.
 */
final class SseFollower implements AutoCloseable {
    private final GatewayClient gateway;
    private final String sessionId;
    private final List<Long> seqs = new ArrayList<>();
    private final AtomicInteger connections = new AtomicInteger();
    private final Thread thread;
    private volatile boolean closed;

    SseFollower(GatewayClient gateway, String sessionId) {
        this.gateway = gateway;
        this.sessionId = sessionId;
        this.thread = Thread.ofPlatform().daemon().name("sse-follower-" + sessionId).start(this::follow);
    }

    private void follow() {
        while (!closed) {
            String lastId = lastSeq() == 0 ? null : Long.toString(lastSeq());
            try {
                connections.incrementAndGet();
                gateway.sse(sessionId, lastId, sse -> {
                    if (sse.id() != null && !sse.id().isEmpty()) {
                        synchronized (seqs) {
                            seqs.add(Long.parseLong(sse.id()));
                        }
                    }
                    return closed;
                }, Duration.ofSeconds(10));
            } catch (Exception | AssertionError dropped) {
                // the gateway is down or restarting: try again shortly, as EventSource does
            }
            sleep(200);
        }
    }

    long lastSeq() {
        synchronized (seqs) {
            return seqs.isEmpty() ? 0 : seqs.getLast();
        }
    }

    /** The seq of every log event received, in arrival order, duplicates included. */
    List<Long> received() {
        synchronized (seqs) {
            return List.copyOf(seqs);
        }
    }

    int connections() {
        return connections.get();
    }

    /** Waits until the event with this seq has arrived. */
    void awaitSeq(long seq, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (lastSeq() < seq) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("SSE client saw up to seq " + lastSeq() + ", expected " + seq);
            }
            Thread.sleep(50);
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() throws InterruptedException {
        closed = true;
        thread.interrupt();
        thread.join(2000);
    }
}
