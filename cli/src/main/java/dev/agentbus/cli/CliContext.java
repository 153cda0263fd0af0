package dev.agentbus.cli;

import java.io.Console;
import java.lang.reflect.Method;
import java.nio.file.Path;
import java.util.Map;

/**
 * What the CLI reads from the world outside its arguments: environment, home directory, whether stdout is a
 * terminal, and how Ctrl-C reaches it. Passed in (rather than read from System.* where needed) so tests run every
 * command in-process with a fake environment.
 */
public record CliContext(Map<String, String> env, Path home, boolean tty, InterruptHook interrupts) {

    public static final String DEFAULT_URL = "http://localhost:8080";

    public CliContext {
        env = Map.copyOf(env);
    }

    public static CliContext system() {
        return new CliContext(System.getenv(), Path.of(System.getProperty("user.home")), isTerminal(),
                InterruptHook.jvm());
    }

    /** An environment variable, or null when unset or empty (an empty value means "not set" for every one we read). */
    public String env(String name) {
        String v = env.get(name);
        return v == null || v.isEmpty() ? null : v;
    }

    /** Colours only on a terminal, and never when NO_COLOR is set (https://no-color.org). */
    public boolean colour() {
        return tty && env("NO_COLOR") == null;
    }

    /** The directory holding gateway-token: $AGENTBUS_DATA_DIR, else ~/.agentbus (the gateway's default too). */
    public Path dataDir() {
        String dir = env("AGENTBUS_DATA_DIR");
        return dir != null ? Path.of(dir) : home.resolve(".agentbus");
    }

    private static boolean isTerminal() {
        Console console = System.console();
        if (console == null) {
            return false;
        }
        // Since JDK 22 System.console() is non-null even when output is redirected; Console.isTerminal() (22+)
        // tells the truth. We compile for 21, so ask for it reflectively and trust console != null on 21.
        try {
            Method isTerminal = Console.class.getMethod("isTerminal");
            return (Boolean) isTerminal.invoke(console);
        } catch (ReflectiveOperationException | RuntimeException onJdk21) {
            return true;
        }
    }
}
