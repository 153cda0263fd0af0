package dev.agentbus.cli;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * What must happen even when the process ends by {@code Runtime.halt}: the interrupt hook halts right after its action
 * (see {@link InterruptHook#jvm()}), which ends the JVM without waiting for the other shutdown hooks. The terminal's
 * settings, above all, must be put back, or the shell that gets the terminal back has no echo.
 */
public final class BeforeHalt {
    private static final List<Runnable> ACTIONS = new CopyOnWriteArrayList<>();

    private BeforeHalt() {
    }

    /** Adds {@code action}; closing the registration removes it. */
    public static InterruptHook.Registration add(Runnable action) {
        ACTIONS.add(action);
        return () -> ACTIONS.remove(action);
    }

    /** Runs every action once, each on its own: one that fails does not keep the others from running. */
    static void runAll() {
        for (Runnable action : ACTIONS) {
            try {
                action.run();
            } catch (RuntimeException ignored) {
                // ending anyway
            }
        }
    }
}
