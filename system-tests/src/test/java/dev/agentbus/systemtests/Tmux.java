package dev.agentbus.systemtests;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * A program running in a real terminal: a detached tmux session on a tmux server of its own (its own socket, so
 * a developer's tmux is never touched), driven the way a person drives it, by pressing keys, and read the way a
 * person reads it, from what the pane shows.
 */
final class Tmux implements AutoCloseable {
    static final Duration WAIT = Duration.ofSeconds(60);
    private static final String SESSION = "it";

    private final String socket = "agentbus-it-" + UUID.randomUUID().toString().substring(0, 8);
    /** Where the server's socket file is, to remove it after the server: tmux leaves it behind. */
    private Path socketPath;

    /** Whether a tmux executable can be run here. */
    static boolean available() {
        try {
            Process p = new ProcessBuilder("tmux", "-V").redirectErrorStream(true).start();
            return p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** Starts {@code shellCommand} (run by sh) in a new detached session whose pane is {@code columns} x {@code rows}. */
    Tmux start(String shellCommand, int columns, int rows) throws Exception {
        tmux("new-session", "-d", "-s", SESSION, "-x", String.valueOf(columns), "-y", String.valueOf(rows),
                shellCommand);
        socketPath = Path.of(tmux("display-message", "-p", "#{socket_path}").strip());
        return this;
    }

    /** Types {@code text} literally (no key names), without Enter. */
    void type(String text) throws Exception {
        tmux("send-keys", "-t", SESSION, "-l", "--", text);
    }

    /** Presses keys by tmux's names: {@code Enter}, {@code Up}, {@code Tab}, {@code C-c}, {@code C-l}, {@code C-d}. */
    void press(String... keys) throws Exception {
        List<String> args = new ArrayList<>(List.of("send-keys", "-t", SESSION));
        args.addAll(List.of(keys));
        tmux(args.toArray(String[]::new));
    }

    /** What the pane shows now, with its scrollback, wrapped lines joined. */
    String screen() throws Exception {
        return tmux("capture-pane", "-p", "-J", "-S", "-2000", "-t", SESSION);
    }

    /**
     * Waits until the pane shows what {@code condition} wants, polling it, at most {@link #WAIT}; fails with the
     * pane's content otherwise. Returns the screen that satisfied it.
     */
    String await(String what, Predicate<String> condition) throws Exception {
        long deadline = System.nanoTime() + WAIT.toNanos();
        String screen = screen();
        while (!condition.test(screen)) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting for " + what + "; the pane shows:\n" + screen);
            }
            Thread.sleep(100);
            screen = screen();
        }
        return screen;
    }

    /** The last line of the screen that is not blank, stripped at its end. */
    static String lastLine(String screen) {
        List<String> lines = screen.lines().map(String::stripTrailing).filter(l -> !l.isEmpty()).toList();
        return lines.isEmpty() ? "" : lines.get(lines.size() - 1);
    }

    private String tmux(String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of("tmux", "-L", socket, "-f", "/dev/null"));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IllegalStateException("tmux " + String.join(" ", args) + " failed: " + output);
        }
        return output;
    }

    /** Ends the session and its server, and with them the program. */
    @Override
    public void close() throws Exception {
        new ProcessBuilder("tmux", "-L", socket, "kill-server").redirectErrorStream(true).start()
                .waitFor(30, TimeUnit.SECONDS);
        if (socketPath != null) {
            Files.deleteIfExists(socketPath);
        }
    }

    /** {@code s} as one sh word. */
    static String quote(String s) {
        return "'" + s.replace("'", "'\\''") + "'";
    }
}
