package dev.agentbus.gateway.websocket;

import io.netty.util.concurrent.EventExecutor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Hands a value from any thread to an event loop, so that whatever waits for it runs on that loop.
 *
 * <p>Completing a future on the loop is not enough on its own: a caller that looks at the future only after the loop
 * has completed it finds it done and goes on in its own thread. Micronaut's filter chain does exactly that
 * ({@code tryComplete()} before it registers its continuation). So the loop completes the future only once something
 * waits on it; the continuation registered then runs on the loop when the future completes.
 */
final class EventLoopHandBack {
    /** How long the loop waits for a dependent before it completes anyway (and the caller goes on in its thread). */
    static final Duration WAIT_FOR_DEPENDENT = Duration.ofSeconds(2);
    private static final long RECHECK_MICROS = 50;
    private static final Logger LOG = LoggerFactory.getLogger(EventLoopHandBack.class);

    private EventLoopHandBack() {
    }

    static <T> CompletableFuture<T> to(EventExecutor loop, T value) {
        return to(loop, value, WAIT_FOR_DEPENDENT);
    }

    static <T> CompletableFuture<T> to(EventExecutor loop, T value, Duration waitForDependent) {
        if (loop.inEventLoop()) {
            return CompletableFuture.completedFuture(value);
        }
        CompletableFuture<T> future = new CompletableFuture<>();
        long deadline = System.nanoTime() + waitForDependent.toNanos();
        loop.execute(() -> completeOnceAwaited(loop, future, value, deadline));
        return future;
    }

    private static <T> void completeOnceAwaited(EventExecutor loop, CompletableFuture<T> future, T value,
                                                long deadline) {
        if (future.getNumberOfDependents() > 0) {
            future.complete(value);
        } else if (System.nanoTime() - deadline >= 0) {
            LOG.warn("nothing waited for the hand-back to the event loop in time; completing it anyway");
            future.complete(value);
        } else {
            loop.schedule(() -> completeOnceAwaited(loop, future, value, deadline), RECHECK_MICROS,
                    TimeUnit.MICROSECONDS);
        }
    }
}
