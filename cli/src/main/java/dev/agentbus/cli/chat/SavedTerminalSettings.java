package dev.agentbus.cli.chat;

import java.io.IOException;
import java.lang.ProcessBuilder.Redirect;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * The terminal's settings as {@code stty -g} prints them, saved before the line editor first puts the terminal in
 * raw mode, and put back with {@code stty} when the process ends without closing the editor (SIGTERM).
 *
 * <p>Why not JLine's own {@code setAttributes}: on SIGTERM, JLine's shutdown hook closes its terminal at the same
 * moment, and a closed JLine terminal refuses to set anything. The process then halted with the terminal still raw
 * (no echo, no line editing) one run in three (ChatTmuxIT). {@code stty} on the same terminal needs nothing from
 * JLine, so whichever hook runs first, the settings come back. Unix only: elsewhere there is no {@code stty}, and
 * {@link #save()} finds nothing to save.
 */
final class SavedTerminalSettings {
    private static final long STTY_SECONDS = 3;

    private final String settings;

    private SavedTerminalSettings(String settings) {
        this.settings = settings;
    }

    /** The current settings of this process's terminal (its standard input), or empty when stty cannot tell. */
    static Optional<SavedTerminalSettings> save() {
        try {
            Process stty = new ProcessBuilder("stty", "-g").redirectInput(Redirect.INHERIT)
                    .redirectError(Redirect.DISCARD).start();
            String out = new String(stty.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).strip();
            boolean done = stty.waitFor(STTY_SECONDS, TimeUnit.SECONDS);
            // stty -g prints one word of colon-separated hex fields; anything else is not worth restoring.
            return done && stty.exitValue() == 0 && out.matches("[0-9a-fA-F:]+")
                    ? Optional.of(new SavedTerminalSettings(out)) : Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }

    /** Puts the saved settings back and waits for stty to have done it; never throws (the process is ending). */
    void restore() {
        try {
            Process stty = new ProcessBuilder("stty", settings).redirectInput(Redirect.INHERIT)
                    .redirectOutput(Redirect.DISCARD).redirectError(Redirect.DISCARD).start();
            stty.waitFor(STTY_SECONDS, TimeUnit.SECONDS);
        } catch (IOException e) {
            // nothing more to try
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
