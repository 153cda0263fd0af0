package dev.agentbus.cli;

/**
 * What to do on Ctrl-C. An interface so tests can "press Ctrl-C" in-process.
 *
 * <p>Two real implementations:
 * <ul>
 *   <li>{@link #jvm()}: a JVM shutdown hook. It runs on SIGINT and SIGTERM on every platform, but the process always
 *       ends afterwards (exit 130). Good enough for one-shot commands.</li>
 *   <li>{@link #signals()}: a handler for SIGINT through the JDK's {@code sun.misc.Signal} (module jdk.unsupported,
 *       present in every mainstream JDK). The action runs and the program carries on, which is what {@code chat}
 *       needs: Ctrl-C cancels the turn and returns to the prompt. SIGTERM still goes through a shutdown hook.</li>
 * </ul>
 * {@link #system()} uses the signal handler when it can be installed and falls back to the shutdown hook.
 *
 * <p>Callers must not depend on which one they got: after the action runs they return as if interrupted, and with
 * the shutdown hook the process simply ends first (with 130).
 */
public interface InterruptHook {

    /**
     * Arms {@code action} to run when the user interrupts; closing the registration disarms it. Registrations are not
     * nested: a command closes one before arming the next.
     */
    Registration arm(Runnable action);

    interface Registration extends AutoCloseable {
        @Override
        void close();
    }

    /** The signal handler if this JVM allows one, else the shutdown hook. */
    static InterruptHook system() {
        InterruptHook signals = signals();
        return signals != null ? signals : jvm();
    }

    /** A SIGINT handler that lets the program carry on after the action, or null when this JVM has none to offer. */
    static InterruptHook signals() {
        return SignalInterrupts.create();
    }

    /**
     * The shutdown hook. It runs the action (cancel the turn, stop streaming) and then halts with 130: the JVM is
     * already shutting down, so the main thread's own exit code would never be seen, and System.exit from a shutdown
     * hook would deadlock.
     */
    static InterruptHook jvm() {
        return action -> {
            Thread hook = new Thread(() -> {
                BeforeHalt.halting();
                try {
                    action.run();
                } finally {
                    BeforeHalt.runAll();
                    Runtime.getRuntime().halt(ExitCodes.INTERRUPTED);
                }
            }, "agentbus-interrupt");
            Runtime.getRuntime().addShutdownHook(hook);
            return () -> {
                try {
                    Runtime.getRuntime().removeShutdownHook(hook);
                } catch (IllegalStateException shuttingDown) {
                    // Too late to disarm: the hook is already running and will decide the exit code.
                }
            };
        };
    }
}
