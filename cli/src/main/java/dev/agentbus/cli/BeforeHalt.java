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
    private static volatile boolean halting;

    private BeforeHalt() {
    }

    /** Adds {@code action}; closing the registration removes it. */
    public static InterruptHook.Registration add(Runnable action) {
        ACTIONS.add(action);
        return () -> ACTIONS.remove(action);
    }

    /** Said by the interrupt hook before its action: the process ends, whatever the action does. */
    static void halting() {
        halting = true;
    }

    /**
     * Whether the process is ending by the interrupt hook. The line editor then leaves its reader blocked where it
     * is: woken, chat would go round its loop and read again, putting the terminal back into raw mode after
     * {@link #runAll()} had restored it and before the halt.
     */
    public static boolean isHalting() {
        return halting;
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
