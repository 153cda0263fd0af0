package dev.agentbus.modelclient;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The body of a reply that answered 2xx, read within the attempt's time limit. The JDK's request time-out ends at
 * the response headers, so a stream that stops sending would block its reader for ever: a deadline closes the body
 * instead, and a read failure after it says "no complete answer within …" rather than a bare I/O error. Closing it
 * releases the connection (or closes it, if the body was not read to its end).
 */
final class ReplyBody implements AutoCloseable {
    /** Closes a reply's body when its attempt runs out of time, which ends a read that would block on. */
    private static final ScheduledExecutorService DEADLINES = Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().daemon().name("model-client-deadlines").factory());

    private final InputStream body;
    private final ScheduledFuture<?> deadline;
    private final AtomicBoolean timedOut;
    private final String what;
    private final CallFailures failures;

    private ReplyBody(InputStream body, ScheduledFuture<?> deadline, AtomicBoolean timedOut, String what,
                      CallFailures failures) {
        this.body = body;
        this.deadline = deadline;
        this.timedOut = timedOut;
        this.what = what;
        this.failures = failures;
    }

    /** Starts the clock: the body must be read to its end within {@code timeout}. */
    static ReplyBody within(Duration timeout, InputStream body, String what, CallFailures failures) {
        AtomicBoolean timedOut = new AtomicBoolean();
        ScheduledFuture<?> deadline = DEADLINES.schedule(() -> {
            timedOut.set(true);
            closeQuietly(body);
        }, timeout.toNanos(), TimeUnit.NANOSECONDS);
        return new ReplyBody(body, deadline, timedOut, what, failures);
    }

    String text() throws ModelCallException {
        try {
            return new String(body.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw readFailure(e);
        }
    }

    BufferedReader lines() {
        return new BufferedReader(new InputStreamReader(body, StandardCharsets.UTF_8));
    }

    ModelCallException readFailure(IOException e) {
        return new ModelCallException(failures.server() + " did not answer the " + what + ": "
                + (timedOut.get() ? failures.timeoutText(e) : failures.describeIo(e)), e);
    }

    @Override
    public void close() {
        deadline.cancel(false);
        try {
            body.close();
        } catch (IOException ignored) {
            // the connection is dropped either way
        }
    }

    private static void closeQuietly(InputStream in) {
        try {
            in.close();
        } catch (IOException ignored) {
            // ending a read is all that was wanted
        }
    }
}
