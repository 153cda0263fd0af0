package dev.agentbus.cli;

/**
 * What to do on Ctrl-C. An interface so tests can "press Ctrl-C" in-process; the JVM implementation uses a
 * shutdown hook, which runs on SIGINT and SIGTERM on every platform without the unsupported sun.misc.Signal API.
 */
public interface InterruptHook {

    /** Arms {@code action} to run when the user interrupts; closing the registration disarms it. */
    Registration arm(Runnable action);

    interface Registration extends AutoCloseable {
        @Override
        void close();
    }

    /**
     * The real thing. The hook runs the action (cancel the turn, stop streaming) and then halts with 130: the JVM
     * is already shutting down, so the main thread's own exit code would never be seen, and System.exit from a
     * shutdown hook would deadlock.
     */
    static InterruptHook jvm() {
        return action -> {
            Thread hook = new Thread(() -> {
                try {
                    action.run();
                } finally {
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
