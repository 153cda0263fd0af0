package dev.agentbus.cli;

import java.lang.reflect.Method;
import java.lang.reflect.Proxy;

/**
 * {@link InterruptHook} on a SIGINT handler ({@code sun.misc.Signal}), so Ctrl-C can run an action without ending the
 * process. Reached by reflection: the class lives in jdk.unsupported, which a JDK may leave out, and a JVM started
 * with {@code -Xrs} refuses the handler, and a process started with SIGINT ignored never receives it; each way
 * {@link #create()} answers null and the caller falls back to the shutdown hook.
 *
 * <p>The handler is installed once, on the first arm, and stays. While nothing is armed it does what the JVM's own
 * SIGINT handler does: exit with 130 through the normal shutdown. While something is armed it runs that instead.
 * The JVM dispatches every signal on a fresh thread, so a second Ctrl-C can arrive while the first action is still
 * running; actions must cope with that (TurnRunner's second Ctrl-C stops waiting for the cancel).
 *
 * <p>SIGTERM is left to the JVM: an armed registration also adds the shutdown hook of {@link InterruptHook#jvm()},
 * so a SIGTERM runs the action and ends the process with 130, as before.
 */
final class SignalInterrupts implements InterruptHook {
    private final Object signal;
    private final Class<?> signalClass;
    private final Class<?> handlerClass;
    private final InterruptHook onTerm = InterruptHook.jvm();
    private volatile Runnable armed;
    private boolean installed;

    private SignalInterrupts(Object signal, Class<?> signalClass, Class<?> handlerClass) {
        this.signal = signal;
        this.signalClass = signalClass;
        this.handlerClass = handlerClass;
    }

    static InterruptHook create() {
        try {
            Class<?> signalClass = Class.forName("sun.misc.Signal");
            Class<?> handlerClass = Class.forName("sun.misc.SignalHandler");
            Object signal = signalClass.getConstructor(String.class).newInstance("INT");
            SignalInterrupts hook = new SignalInterrupts(signal, signalClass, handlerClass);
            hook.install(); // now, not on the first arm, so a refusal (-Xrs) is known before anything relies on it
            return hook;
        } catch (ReflectiveOperationException | LinkageError | RuntimeException unavailable) {
            return null;
        }
    }

    @Override
    public Registration arm(Runnable action) {
        armed = action;
        Registration term = onTerm.arm(action);
        return () -> {
            term.close();
            if (armed == action) {
                armed = null;
            }
        };
    }

    private synchronized void install() throws ReflectiveOperationException {
        if (installed) {
            return;
        }
        Object handler = Proxy.newProxyInstance(handlerClass.getClassLoader(), new Class<?>[]{handlerClass},
                (proxy, method, args) -> switch (method.getName()) {
                    case "handle" -> {
                        onSignal();
                        yield null;
                    }
                    case "hashCode" -> System.identityHashCode(proxy);
                    case "equals" -> proxy == args[0];
                    case "toString" -> "agentbus SIGINT handler";
                    default -> null;
                });
        Method handle = signalClass.getMethod("handle", signalClass, handlerClass);
        Object before = handle.invoke(null, signal, handler);
        if (before == handlerClass.getField("SIG_IGN").get(null)) {
            // The process was started with SIGINT ignored (in the background by a shell without job control, or
            // under nohup). The JVM then keeps it ignored and never calls our handler: there is no Ctrl-C to catch.
            throw new IllegalStateException("SIGINT is ignored by this process");
        }
        installed = true;
    }

    private void onSignal() {
        Runnable action = armed;
        if (action == null) {
            System.exit(ExitCodes.INTERRUPTED); // what the JVM's own handler would have done
        } else {
            action.run();
        }
    }
}
