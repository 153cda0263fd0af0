package dev.agentbus.cli;

import org.junit.jupiter.api.Test;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The real SIGINT handler, with a real SIGINT sent to this JVM. Only while something is armed: unarmed, the handler
 * exits with 130 like the JVM's own, which would end the test run.
 */
class InterruptHookTest {

    private static void raiseSigint() throws Exception {
        Class<?> signal = Class.forName("sun.misc.Signal");
        signal.getMethod("raise", signal).invoke(null, signal.getConstructor(String.class).newInstance("INT"));
    }

    @Test
    void the_signal_handler_runs_the_armed_action_and_the_process_carries_on() throws Exception {
        InterruptHook hook = InterruptHook.signals();
        assumeTrue(hook != null, "this JVM offers no SIGINT handler");

        CountDownLatch first = new CountDownLatch(1);
        CountDownLatch second = new CountDownLatch(1);
        InterruptHook.Registration stale = hook.arm(first::countDown);
        try (InterruptHook.Registration current = hook.arm(second::countDown)) {
            stale.close(); // closing an older registration must not disarm the newer one
            raiseSigint();
            assertThat(second.await(5, TimeUnit.SECONDS)).isTrue();
            assertThat(first.getCount()).isEqualTo(1);

            // every signal is awaited before disarming: one arriving unarmed would exit this JVM with 130
            CountDownLatch third = new CountDownLatch(1);
            try (InterruptHook.Registration again = hook.arm(third::countDown)) {
                raiseSigint(); // the handler stays installed for the next Ctrl-C
                assertThat(third.await(5, TimeUnit.SECONDS)).isTrue();
            }
        }
    }

    @Test
    void system_prefers_the_signal_handler() {
        assumeTrue(InterruptHook.signals() != null, "this JVM offers no SIGINT handler");
        assertThat(InterruptHook.system()).isInstanceOf(SignalInterrupts.class);
    }
}
