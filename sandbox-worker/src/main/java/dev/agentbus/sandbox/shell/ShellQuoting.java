package dev.agentbus.sandbox.shell;

import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/** Turns text into POSIX shell words that the shell takes literally, whatever they contain. */
public final class ShellQuoting {
    private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    private ShellQuoting() {
    }

    /**
     * One single-quoted word. Inside single quotes nothing is special but the closing quote, so each {@code '} is
     * written as {@code '\''} (close, an escaped quote, reopen). NUL cannot be passed to a program at all.
     */
    public static String quote(String text) {
        if (text.indexOf('\0') >= 0) {
            throw new IllegalArgumentException("text contains a NUL character, which no shell word can hold");
        }
        return "'" + text.replace("'", "'\\''") + "'";
    }

    /** argv as a simple command: every word quoted, so no expansion, pipe or redirect can happen. */
    public static String command(List<String> argv) {
        return argv.stream().map(ShellQuoting::quote).collect(Collectors.joining(" "));
    }

    /** A name {@code export} accepts. */
    public static boolean isVariableName(String name) {
        return name != null && NAME.matcher(name).matches();
    }
}
