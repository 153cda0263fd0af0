package dev.agentbus.testkit;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/**
 * Waits for a condition the test cannot be told about (a file the sandbox writes, a read model catching up): it
 * looks again every {@link #EVERY} until the condition holds, and fails naming what it waited for once the time is
 * up. The one polling loop of the tests (in the testkit, so every module's ITs share it), so none of them sleeps a
 * fixed time instead.
 */
public final class Poll {
    public static final Duration EVERY = Duration.ofMillis(20);

    private Poll() {
    }

    public static void until(String what, Duration timeout, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("timed out after " + timeout.toSeconds() + " s waiting for " + what);
            }
            Thread.sleep(EVERY.toMillis());
        }
    }
}
