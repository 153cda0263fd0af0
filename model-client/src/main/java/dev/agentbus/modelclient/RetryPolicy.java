package dev.agentbus.modelclient;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;

/**
 * When a failed attempt is worth another and how long to wait before it: HTTP 408, 409, 429 and 5xx are retried
 * (connection failures too, decided by the sender), with exponential backoff of about 0.5 s, 1 s, 2 s … capped at
 * 8 s, with jitter so that several callers do not come back at once, or what the server's {@code Retry-After} asks,
 * up to a minute. Apart from the sending, so the policy can be tuned without touching how a call is made.
 */
final class RetryPolicy {
    private static final Duration MAX_BACKOFF = Duration.ofSeconds(8);
    private static final Duration MAX_RETRY_AFTER = Duration.ofMinutes(1);

    private RetryPolicy() {
    }

    /** Whether an HTTP error status may go away when asked again (busy, overloaded, restarting). */
    static boolean retryable(int status) {
        return status == 408 || status == 409 || status == 429 || status >= 500;
    }

    /**
     * @param attempt    the attempt that failed, from 0
     * @param retryAfter the server's {@code Retry-After} header, or null
     */
    static Duration backoff(int attempt, String retryAfter) {
        if (retryAfter != null) {
            try {
                Duration asked = Duration.ofSeconds(Long.parseLong(retryAfter.strip()));
                if (!asked.isNegative() && asked.compareTo(MAX_RETRY_AFTER) <= 0) {
                    return asked;
                }
            } catch (NumberFormatException notSeconds) {
                // an HTTP date: rare from model servers; the usual backoff applies
            }
        }
        long base = Math.min(MAX_BACKOFF.toMillis(), 500L << Math.min(attempt, 10));
        return Duration.ofMillis((long) (base * (0.75 + 0.25 * ThreadLocalRandom.current().nextDouble())));
    }

    static void pause(Duration d) throws ModelCallException {
        try {
            Thread.sleep(d);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ModelCallException("interrupted while waiting to retry", e);
        }
    }
}
