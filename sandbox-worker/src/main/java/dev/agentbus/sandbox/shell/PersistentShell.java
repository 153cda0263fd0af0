package dev.agentbus.sandbox.shell;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Talks to one long-lived {@code /bin/sh}: sends it a command, collects the output up to an end marker, and reads
 * the shell's working directory and exported variables after it. Because every command runs in the same shell
 * process, {@code cd}, {@code export}, functions and background jobs (a tmux server) carry over to the next one.
 *
 * <p>The protocol. At start the shell saves its stdout as fd 9 and defines {@code __ab_done}. Each command is sent
 * as
 * <pre>
 *   trap '__ab_done MARK $? exit' EXIT
 *   eval 'the command, single-quoted' &lt;/dev/null &gt;&amp;9 2&gt;&amp;9
 *   __ab_done MARK $? run
 * </pre>
 * where MARK is a fresh random token, so output of the command cannot end the command early by accident. eval runs
 * in the shell itself (that is what keeps {@code cd}); stdin is {@code /dev/null} so a command that reads input
 * ends at once instead of eating the next command. {@code __ab_done} prints {@code \nMARK <status> run}, a
 * newline, the working directory and a NUL, {@code export -p}, and {@code \nMARK-end\n}. When the command ends the
 * shell ({@code exit 3}, a syntax error) the EXIT trap prints the same block with {@code exit} first, so the status
 * and state are known for every backend.
 *
 * <p>One reader thread per shell drains the output all the time: a shell whose pipe is full would block, and
 * output a background job prints between two commands is read and dropped.
 *
 * <p>Not thread-safe for commands: callers run one command at a time (a session's calls run in order).
 */
public final class PersistentShell implements AutoCloseable {
    /** How a command ended. */
    public enum Status {
        /** It ran to its end; the exit code and the state after it are known. */
        COMPLETED,
        /** It ended the shell too ({@code exit}); the exit code and the state at that moment are known. */
        SHELL_EXITED,
        /** The shell vanished without saying anything (killed, out of memory): neither code nor state is known. */
        SHELL_LOST,
        /** It ran past its time-out; it is still running and the caller must kill it. */
        TIMED_OUT
    }

    /**
     * @param cwd      the working directory after the command (null unless COMPLETED or SHELL_EXITED)
     * @param exported every exported variable after it (empty unless COMPLETED or SHELL_EXITED)
     */
    public record Outcome(Status status, int exitCode, String output, long omittedBytes, String cwd,
                          Map<String, String> exported) {
    }

    private static final String PRELUDE = """
            exec 9>&1
            __ab_done() { command printf '\\n%s %d %s\\n%s\\000' "$1" "$2" "$3" "$PWD" >&9; export -p >&9; \
            command printf '\\n%s-end\\n' "$1" >&9; }
            """;
    private static final SecureRandom RANDOM = new SecureRandom();

    private final ShellProcess process;
    private final int capBytes;
    private final Thread reader;
    private final Object lock = new Object();
    /** The running command's receiver of output; null between commands (output is then dropped). */
    private CommandSink sink;
    /** Output before the first command (a sandbox's own start-up error), kept for the error message. */
    private final StringBuilder early = new StringBuilder();
    private boolean anyCommand;
    private boolean ended;

    private PersistentShell(ShellProcess process, int capBytes) {
        this.process = process;
        this.capBytes = capBytes;
        this.reader = Thread.ofPlatform().daemon().name("agentbus-shell-reader").unstarted(this::drain);
    }

    /**
     * Starts talking to a freshly started shell. A shell that is already gone is not an error here: the first
     * command then comes back {@link Status#SHELL_LOST} and {@link #earlyOutput()} says why.
     */
    public static PersistentShell attach(ShellProcess process, int capBytes) {
        PersistentShell shell = new PersistentShell(process, capBytes);
        shell.reader.start();
        try {
            shell.send(PRELUDE);
        } catch (IOException e) {
            // Reported through the first command.
        }
        return shell;
    }

    /** What the shell's process printed before the first command ran (at most 4 KiB): its start-up errors. */
    public String earlyOutput() {
        synchronized (lock) {
            return early.toString();
        }
    }

    /**
     * Runs one command line and waits for its end marker, the shell's end, or the time-out.
     *
     * @param liveOutput receives output text as it arrives, capped like the result (may be null)
     */
    public Outcome run(String command, Duration timeout, Consumer<String> liveOutput) throws InterruptedException {
        String mark = "__AB_" + HexFormat.of().formatHex(token());
        CommandSink current = new CommandSink(mark, new OutputCollector(capBytes, liveOutput));
        synchronized (lock) {
            anyCommand = true;
            if (ended) {
                return lost(current);
            }
            sink = current;
        }
        String script = "trap '__ab_done " + mark + " $? exit' EXIT\n"
                + "eval " + ShellQuoting.quote(command) + " </dev/null >&9 2>&9\n"
                + "__ab_done " + mark + " $? run\n";
        try {
            send(script);
        } catch (IOException e) {
            // The shell is gone, but what it printed on its way out (bubblewrap's reason, say) may still be in the
            // pipe: the reader ends the command when the output ends, with that text, instead of ending it here
            // without it.
        }
        boolean done = current.done.await(timeout.toNanos(), TimeUnit.NANOSECONDS);
        synchronized (lock) {
            sink = null;
        }
        if (!done) {
            current.flush();
            return new Outcome(Status.TIMED_OUT, -1, current.collector.text(), current.collector.omittedBytes(),
                    null, Map.of());
        }
        return current.outcome(process);
    }

    /** True while the shell may still take commands. */
    public boolean alive() {
        synchronized (lock) {
            return !ended;
        }
    }

    @Override
    public void close() {
        process.destroy();
    }

    private Outcome lost(CommandSink current) {
        current.finish(false);
        return current.outcome(process);
    }

    private static byte[] token() {
        byte[] bytes = new byte[12];
        RANDOM.nextBytes(bytes);
        return bytes;
    }

    private void send(String text) throws IOException {
        OutputStream in = process.stdin();
        in.write(text.getBytes(StandardCharsets.UTF_8));
        in.flush();
    }

    private void drain() {
        byte[] buffer = new byte[16384];
        try (InputStream out = process.output()) {
            int n;
            while ((n = out.read(buffer)) != -1) {
                synchronized (lock) {
                    if (sink != null) {
                        sink.accept(buffer, n);
                    } else if (!anyCommand && early.length() < 4096) {
                        early.append(new String(buffer, 0, Math.min(n, 4096 - early.length()),
                                StandardCharsets.UTF_8));
                    }
                }
            }
        } catch (IOException e) {
            // The stream broke: the same as the shell ending.
        } finally {
            synchronized (lock) {
                ended = true;
                if (sink != null) {
                    sink.finish(false);
                }
            }
        }
    }

    /**
     * Splits one command's stream into its output (to the collector) and the state block after the marker. The
     * marker is searched across read boundaries: up to its length minus one bytes are held back until the next
     * read shows they are not the start of it.
     */
    private static final class CommandSink {
        private final byte[] header;
        private final byte[] trailer;
        private final OutputCollector collector;
        private final CountDownLatch done = new CountDownLatch(1);
        private byte[] held = new byte[0];
        private java.io.ByteArrayOutputStream state;
        private boolean markerSeen;
        private boolean clean;

        CommandSink(String mark, OutputCollector collector) {
            this.header = ("\n" + mark + " ").getBytes(StandardCharsets.US_ASCII);
            this.trailer = ("\n" + mark + "-end\n").getBytes(StandardCharsets.US_ASCII);
            this.collector = collector;
        }

        void accept(byte[] buffer, int length) {
            if (done.getCount() == 0) {
                return;
            }
            if (markerSeen) {
                state.write(buffer, 0, length);
                checkTrailer();
                return;
            }
            byte[] data = new byte[held.length + length];
            System.arraycopy(held, 0, data, 0, held.length);
            System.arraycopy(buffer, 0, data, held.length, length);
            int at = indexOf(data, header, 0);
            if (at >= 0) {
                collector.accept(data, at);
                markerSeen = true;
                state = new java.io.ByteArrayOutputStream();
                state.write(data, at + header.length, data.length - at - header.length);
                held = new byte[0];
                checkTrailer();
                return;
            }
            int keep = Math.min(data.length, header.length - 1);
            int give = data.length - keep;
            if (give > 0) {
                collector.accept(data, give);
            }
            held = java.util.Arrays.copyOfRange(data, give, data.length);
        }

        private void checkTrailer() {
            byte[] bytes = state.toByteArray();
            if (indexOf(bytes, trailer, Math.max(0, bytes.length - trailer.length)) >= 0) {
                finish(true);
            }
        }

        /** Output still held back for marker matching belongs to the command after all. */
        void flush() {
            if (!markerSeen && held.length > 0) {
                collector.accept(held, held.length);
                held = new byte[0];
            }
        }

        void finish(boolean sawTrailer) {
            if (done.getCount() == 0) {
                return;
            }
            clean = sawTrailer;
            flush();
            done.countDown();
        }

        Outcome outcome(ShellProcess process) {
            if (!clean) {
                int status = process.exitStatus().orElse(-1);
                return new Outcome(Status.SHELL_LOST, status, collector.text(), collector.omittedBytes(), null,
                        Map.of());
            }
            String block = state.toString(StandardCharsets.UTF_8);
            // "<status> <run|exit>\n<cwd>\0<export -p>\nMARK-end\n"; "exit" when the EXIT trap printed it,
            // that is when the shell is on its way out.
            int newline = block.indexOf('\n');
            int nul = block.indexOf('\0', newline + 1);
            String[] head = block.substring(0, newline).trim().split(" ");
            int exit = Integer.parseInt(head[0]);
            boolean exiting = head.length > 1 && head[1].equals("exit");
            String cwd = block.substring(newline + 1, nul);
            String exports = block.substring(nul + 1, block.length() - trailer.length);
            return new Outcome(exiting ? Status.SHELL_EXITED : Status.COMPLETED, exit, collector.text(),
                    collector.omittedBytes(), cwd, ExportList.parse(exports));
        }

        private static int indexOf(byte[] data, byte[] needle, int from) {
            outer:
            for (int i = from; i <= data.length - needle.length; i++) {
                for (int j = 0; j < needle.length; j++) {
                    if (data[i + j] != needle[j]) {
                        continue outer;
                    }
                }
                return i;
            }
            return -1;
        }
    }
}
