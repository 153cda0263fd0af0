package dev.agentbus.gateway.readmodels;

import java.time.Duration;
import java.util.concurrent.Callable;

/** Waits for something the projector does asynchronously, failing with a message when it does not happen. */
public final class Await {
    private Await() {
    }

    public static void until(String what, Duration timeout, Callable<Boolean> condition) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        Exception last = null;
        while (System.nanoTime() < deadline) {
            try {
                if (Boolean.TRUE.equals(condition.call())) {
                    return;
                }
            } catch (Exception e) {
                last = e; // e.g. the schema is not migrated yet
            }
            Thread.sleep(50);
        }
        throw new AssertionError("timed out after " + timeout + " waiting until " + what, last);
    }
}
