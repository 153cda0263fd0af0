package dev.agentbus.cli;

import java.io.Console;
import java.io.InputStream;
import java.lang.reflect.Method;
import java.nio.file.Path;
import java.util.Map;

/**
 * What the CLI reads from the world outside its arguments: environment, home directory, whether stdout is a
 * terminal, how Ctrl-C reaches it, and (for {@code chat}) standard input and whether a person is typing on it.
 * Passed in (rather than read from System.* where needed) so tests run every command in-process with a fake
 * environment.
 *
 * @param tty         stdout is a terminal: decides colours
 * @param interactive a person types on stdin (a terminal): {@code chat} shows a prompt, and plain {@code agentbus}
 *                    starts {@code chat} instead of printing the usage
 * @param lineEditor  stdin and stdout are this process's own terminal, so {@code chat} may take it over with a line
 *                    editor (history, completion, key bindings); false in tests, which type through a pipe
 */
public record CliContext(Map<String, String> env, Path home, boolean tty, InterruptHook interrupts,
                         InputStream stdin, boolean interactive, boolean lineEditor) {

    public static final String DEFAULT_URL = "http://localhost:8080";

    public CliContext {
        env = Map.copyOf(env);
        stdin = stdin != null ? stdin : InputStream.nullInputStream();
    }

    /** A context whose stdin is not a terminal the CLI may take over (what the tests use). */
    public CliContext(Map<String, String> env, Path home, boolean tty, InterruptHook interrupts, InputStream stdin,
                      boolean interactive) {
        this(env, home, tty, interrupts, stdin, interactive, false);
    }

    /** A context without standard input (nothing to read, not interactive): enough for every command but chat. */
    public CliContext(Map<String, String> env, Path home, boolean tty, InterruptHook interrupts) {
        this(env, home, tty, interrupts, InputStream.nullInputStream(), false, false);
    }

    public static CliContext system() {
        boolean terminal = isTerminal();
        return new CliContext(System.getenv(), Path.of(System.getProperty("user.home")), terminal,
                InterruptHook.system(), System.in, terminal, terminal);
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

    /**
     * System.console() is a terminal: on JDK 21 it is null unless stdin and stdout are both terminals. Since JDK 22
     * it is non-null even when they are redirected, and Console.isTerminal() (22+) tells the truth; we compile for
     * 21, so ask for it reflectively and trust console != null on 21.
     */
    private static boolean isTerminal() {
        Console console = System.console();
        if (console == null) {
            return false;
        }
        try {
            Method isTerminal = Console.class.getMethod("isTerminal");
            return (Boolean) isTerminal.invoke(console);
        } catch (ReflectiveOperationException | RuntimeException onJdk21) {
            return true;
        }
    }
}
