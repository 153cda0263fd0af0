package dev.agentbus.cli.chat;

import dev.agentbus.cli.BeforeHalt;
import dev.agentbus.cli.InterruptHook;
import org.jline.keymap.KeyMap;
import org.jline.reader.Binding;
import org.jline.reader.Candidate;
import org.jline.reader.EndOfFileException;
import org.jline.reader.LineReader;
import org.jline.reader.LineReaderBuilder;
import org.jline.reader.Reference;
import org.jline.reader.UserInterruptException;
import org.jline.terminal.Attributes;
import org.jline.terminal.Terminal;
import org.jline.terminal.TerminalBuilder;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Optional;

/**
 * Chat's prompt on a terminal, with JLine's line editor: history with the arrow keys (kept in a file, so it outlives
 * the process), multi-line messages (a trailing backslash, or Alt+Enter), tab completion of slash commands and
 * Ctrl+L for a new session. Ctrl+C and Ctrl+D come back as {@link Read.Interrupted} and {@link Read.End}; what they
 * mean is {@link CtrlC}'s business.
 *
 * <p>While it reads, the line reader puts the terminal in raw mode and sees Ctrl-C as a key. Between reads the
 * terminal is left as it was (cooked), so Ctrl-C during a turn is a SIGINT, which must reach the CLI's own handler
 * ({@code InterruptHook}, which cancels the turn): the terminal is built without native signal handlers, so as not
 * to replace it. A SIGINT that arrives while reading (sent with kill) reaches the reader through
 * {@link #interrupt()}, which chat arms while it reads.
 */
final class TerminalInput implements ChatInput {
    static final String NEWLINE_WIDGET = "agentbus-insert-newline";
    static final String NEW_SESSION_WIDGET = "agentbus-new-session";
    /** What Ctrl+L types for you: the command that starts a new session. */
    static final String NEW_SESSION_LINE = "/new";
    private static final int HISTORY_SIZE = 1000;

    private final Terminal terminal;
    private final LineReader reader;
    /** Puts the terminal's settings back if the JVM ends without {@link #close()} (SIGTERM, System.exit). */
    private final Thread restoreOnExit;
    /** The same, for an end by the interrupt hook's halt, which does not wait for shutdown hooks. */
    private final InterruptHook.Registration restoreBeforeHalt;
    private volatile boolean reading;
    private volatile boolean interruptPending;

    private TerminalInput(Terminal terminal, LineReader reader) {
        this.terminal = terminal;
        this.reader = reader;
        // The settings from before any read: a SIGTERM while readLine holds the terminal raw would otherwise leave
        // the shell that gets it back without echo and line editing (ChatTmuxIT kills chat at its prompt). Put back
        // with stty, not through JLine, whose own shutdown hook may be closing the terminal at the same moment.
        Optional<SavedTerminalSettings> saved = SavedTerminalSettings.save();
        Attributes cooked = terminal.getAttributes();
        Runnable restore = saved.<Runnable>map(s -> s::restore).orElse(() -> terminal.setAttributes(cooked));
        this.restoreOnExit = new Thread(restore, "agentbus-terminal-restore");
        Runtime.getRuntime().addShutdownHook(restoreOnExit);
        this.restoreBeforeHalt = BeforeHalt.add(restore);
    }

    /** Takes over this process's terminal; throws when there is none JLine can drive (chat then reads plain lines). */
    static TerminalInput open(Path historyFile, SlashCommands commands) throws IOException {
        Terminal terminal = TerminalBuilder.builder()
                .system(true)
                .nativeSignals(false) // SIGINT is the CLI's: it cancels turns; see the class comment
                .encoding(StandardCharsets.UTF_8)
                .dumb(false) // a terminal JLine cannot drive is not worth a degraded editor: plain lines are better
                .build();
        String type = terminal.getType();
        if (type == null || type.startsWith(Terminal.TYPE_DUMB)) {
            // No cursor movement: the editor could not redraw a line, and arrow keys would print as ^[[A.
            terminal.close();
            throw new IOException("TERM=" + type + " has no line editing");
        }
        try {
            LineReader reader = LineReaderBuilder.builder()
                    .terminal(terminal)
                    .appName("agentbus")
                    .parser(new ChatLineParser())
                    .completer((r, line, candidates) -> {
                        for (String word : commands.complete(line.words(), line.wordIndex())) {
                            String help = line.wordIndex() == 0 ? commands.find(word)
                                    .map(c -> c.help().get(0).text()).orElse(null) : null;
                            candidates.add(new Candidate(word, word, null, help, null, null, true));
                        }
                    })
                    .variable(LineReader.HISTORY_FILE, prepareHistory(historyFile))
                    .variable(LineReader.HISTORY_SIZE, HISTORY_SIZE)
                    .variable(LineReader.HISTORY_FILE_SIZE, HISTORY_SIZE)
                    .variable(LineReader.SECONDARY_PROMPT_PATTERN, "...> ")
                    // "!" in a message is punctuation, not a history reference
                    .option(LineReader.Option.DISABLE_EVENT_EXPANSION, true)
                    .option(LineReader.Option.CASE_INSENSITIVE, true)
                    .build();
            bindKeys(reader);
            return new TerminalInput(terminal, reader);
        } catch (RuntimeException e) {
            terminal.close();
            throw e;
        }
    }

    /** The history file's folder exists, and the file is readable by its owner only: it holds what was typed. */
    private static Path prepareHistory(Path file) throws IOException {
        Files.createDirectories(file.toAbsolutePath().getParent());
        if (!Files.exists(file)) {
            Files.createFile(file);
            try {
                Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
            } catch (UnsupportedOperationException notPosix) {
                // Windows: the file stays in the user's profile, which is the user's own
            }
        }
        return file;
    }

    private static void bindKeys(LineReader reader) {
        reader.getWidgets().put(NEWLINE_WIDGET, () -> {
            reader.getBuffer().write("\n");
            return true;
        });
        reader.getWidgets().put(NEW_SESSION_WIDGET, () -> {
            reader.callWidget(LineReader.CLEAR_SCREEN);
            reader.getBuffer().clear();
            reader.getBuffer().write(NEW_SESSION_LINE);
            reader.callWidget(LineReader.ACCEPT_LINE);
            return true;
        });
        KeyMap<Binding> main = reader.getKeyMaps().get(LineReader.MAIN);
        // Alt+Enter arrives as ESC then CR (or LF, depending on the terminal).
        main.bind(new Reference(NEWLINE_WIDGET), KeyMap.alt('\r'), KeyMap.alt('\n'));
        main.bind(new Reference(NEW_SESSION_WIDGET), KeyMap.ctrl('L'));
    }

    @Override
    public Read read(String prompt) {
        if (interruptPending) {
            interruptPending = false;
            return new Read.Interrupted("");
        }
        leaveTheTerminalAloneIfEnding();
        reading = true;
        try {
            return new Read.Line(ChatLineParser.message(reader.readLine(prompt)));
        } catch (UserInterruptException e) {
            return new Read.Interrupted(e.getPartialLine());
        } catch (EndOfFileException | java.io.IOError e) {
            // (IOError: the terminal was closed under the reader, by JLine's own shutdown hook among others.)
            leaveTheTerminalAloneIfEnding();
            return new Read.End();
        } finally {
            reading = false;
        }
    }

    /**
     * Once the JVM is ending (SIGTERM, or the interrupt hook's halt), the reader must not read again: each readLine
     * puts the terminal in raw mode, and JLine's shutdown hook, which closes the terminal, wakes the reader, so chat
     * would go round its loop putting the terminal back into raw mode while the hooks restore it, and whichever
     * came last before the halt would win. So the reading thread stays here until the process is gone.
     */
    private static void leaveTheTerminalAloneIfEnding() {
        if (!BeforeHalt.isHalting() && !jvmShuttingDown()) {
            return;
        }
        while (true) {
            try {
                Thread.sleep(Long.MAX_VALUE);
            } catch (InterruptedException e) {
                // still ending
            }
        }
    }

    /** The one way to ask the JVM whether its shutdown has begun: it refuses new hooks from then on. */
    private static boolean jvmShuttingDown() {
        Thread probe = new Thread(() -> { });
        try {
            Runtime.getRuntime().addShutdownHook(probe);
            Runtime.getRuntime().removeShutdownHook(probe);
            return false;
        } catch (IllegalStateException shuttingDown) {
            return true;
        }
    }

    @Override
    public void interrupt() {
        if (BeforeHalt.isHalting()) {
            return; // SIGTERM: the process ends; the terminal is put back before the halt (BeforeHalt)
        }
        if (reading) {
            terminal.raise(Terminal.Signal.INT); // the line reader's handler interrupts its readLine
        } else {
            interruptPending = true;
        }
    }

    @Override
    public boolean lineEditor() {
        return true;
    }

    @Override
    public void close() {
        restoreBeforeHalt.close();
        try {
            Runtime.getRuntime().removeShutdownHook(restoreOnExit);
        } catch (IllegalStateException shuttingDown) {
            // the hook runs anyway
        }
        try {
            terminal.close(); // puts the terminal's settings back
        } catch (IOException ignored) {
            // leaving anyway
        }
    }
}
