package dev.agentbus.cli;

import java.io.PrintWriter;

/**
 * All terminal output goes through here: it knows whether to colour, and whether stdout is in the middle of a
 * line (streamed tokens usually leave it so), so a tool-call line or an error never gets glued to the end of a
 * sentence. Synchronized because the Ctrl-C hook prints from another thread while the stream is being rendered.
 *
 * <p>Lines end with {@code \n} on every platform: the output is meant for terminals and pipes, not for Notepad.
 */
public final class Printer {
    private static final String RESET = "\u001b[0m";

    private final PrintWriter out;
    private final PrintWriter err;
    private final boolean colour;
    private boolean outAtLineStart = true;

    public Printer(PrintWriter out, PrintWriter err, boolean colour) {
        this.out = out;
        this.err = err;
        this.colour = colour;
    }

    /** Writes text as is (streamed tokens); flushes so it appears as it arrives. */
    public synchronized void print(String text) {
        if (text == null || text.isEmpty()) {
            return;
        }
        out.print(text);
        outAtLineStart = text.endsWith("\n");
        out.flush();
    }

    /** Writes a whole line, starting a new one first if streamed text left stdout mid-line. */
    public synchronized void println(String line) {
        newline();
        out.print(line);
        out.print('\n');
        outAtLineStart = true;
        out.flush();
    }

    /**
     * Writes a prompt and leaves the cursor after it. The line counts as ended: the person ends it by pressing Enter,
     * which the terminal echoes. (Without Enter, at Ctrl-C or Ctrl-D, the caller ends the line itself.)
     */
    public synchronized void prompt(String prompt) {
        newline();
        out.print(prompt);
        outAtLineStart = true;
        out.flush();
    }

    /** A stack trace on stderr, for AGENTBUS_DEBUG. */
    public synchronized void trace(Throwable t) {
        newline();
        t.printStackTrace(err);
        err.flush();
    }

    /** Ends the current stdout line if something was left on it. */
    public synchronized void newline() {
        if (!outAtLineStart) {
            out.print('\n');
            outAtLineStart = true;
            out.flush();
        }
    }

    /** An error for a person: on stderr, prefixed with the program name. */
    public synchronized void error(String message) {
        newline();
        err.print(red("agentbus: ") + message + "\n");
        err.flush();
    }

    /** A warning on stderr: something went wrong but the command carries on. */
    public synchronized void warn(String message) {
        newline();
        err.print(yellow("agentbus: ") + message + "\n");
        err.flush();
    }

    public boolean colour() {
        return colour;
    }

    public String dim(String s) {
        return style("2", s);
    }

    public String bold(String s) {
        return style("1", s);
    }

    public String red(String s) {
        return style("31", s);
    }

    public String green(String s) {
        return style("32", s);
    }

    public String yellow(String s) {
        return style("33", s);
    }

    public String cyan(String s) {
        return style("36", s);
    }

    private String style(String sgr, String s) {
        return colour && s != null && !s.isEmpty() ? "\u001b[" + sgr + "m" + s + RESET : s;
    }
}
