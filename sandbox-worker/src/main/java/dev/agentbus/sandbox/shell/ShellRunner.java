package dev.agentbus.sandbox.shell;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * Legacy: the one-shot runner the shell tool used before sandboxes were persistent (see {@code sandboxing/} and
 * docs/sandbox.md). Nothing runs model commands through it any more; it stays until {@code ToolExecutor} stops
 * constructing it, and then goes with {@link ShellResult}, {@link ShellUnavailableException} and
 * {@link ProcessTree}.
 *
 * <p>Runs one {@code /bin/sh -c} command for a tool call: inside bubblewrap around the workspace, or, only when the
 * operator explicitly asked for it, directly on the host.
 *
 * <p>Guarantees, in both modes: stdin is {@code /dev/null} (a command waiting for input would otherwise hang until
 * the time-out), the environment holds only PATH, HOME, LANG and TMPDIR, output is capped but always drained, the
 * time-out kills the whole process tree, and no process started by the command survives it (in unsafe host mode a
 * process that detaches itself into a new session can escape; see {@link ProcessTree}).
 *
 * <p>What stays with the operator: there are no memory, CPU or process-count limits here (the Docker backend is
 * the place for those), and {@code /tmp} inside the sandbox is an unbounded in-memory tmpfs.
 *
 * <p>Each call blocks the calling thread for up to the time-out; one extra platform thread per call drains the
 * output pipe.
 */
public final class ShellRunner {
    /** The environment variable an operator sets to allow host execution; named in the refusal message. */
    public static final String UNSAFE_HOST_ENV = "AGENTBUS_SANDBOX_UNSAFE_HOST";

    static final String BWRAP_MISSING = "bubblewrap (bwrap) is not installed; install it or set "
            + UNSAFE_HOST_ENV + "=true to run commands directly on the host (unsafe)";

    private static final Logger LOG = LoggerFactory.getLogger(ShellRunner.class);
    private static final AtomicBoolean UNSAFE_WARNED = new AtomicBoolean();

    /** How often the process tree is sampled while a command runs (see {@link ProcessTree}). */
    private static final long POLL_MILLIS = 50;
    /** After the shell is gone, how long the pipe may stay open (a background job still writing) before we stop. */
    private static final Duration DRAIN_GRACE = Duration.ofSeconds(2);
    /** util-linux setsid, used in unsafe host mode to give the command its own process group (see ProcessTree). */
    private static final Optional<Path> SETSID = Bubblewrap.locate("/usr/bin/setsid")
            .or(() -> Bubblewrap.locate("/bin/setsid"));

    private final String bwrapPath;
    private final boolean unsafeHost;
    private final int outputCapBytes;

    public ShellRunner(String bwrapPath, boolean unsafeHost, int outputCapBytes) {
        if (outputCapBytes <= 0) {
            throw new IllegalArgumentException("outputCapBytes must be positive");
        }
        this.bwrapPath = bwrapPath;
        this.unsafeHost = unsafeHost;
        this.outputCapBytes = outputCapBytes;
        if (unsafeHost && UNSAFE_WARNED.compareAndSet(false, true)) {
            LOG.warn("!!! UNSAFE HOST MODE: {}=true, shell commands written by the model run DIRECTLY ON THIS HOST "
                    + "as this worker's user, with no sandbox, no network isolation and full access to every "
                    + "file the worker can reach. Use only on a throw-away machine. !!!", UNSAFE_HOST_ENV);
        }
    }

    /** See {@link Bubblewrap#bwrapAvailable(String)}; here too so callers of the shell need only this class. */
    public static boolean bwrapAvailable(String bwrapPath) {
        return Bubblewrap.bwrapAvailable(bwrapPath);
    }

    public boolean unsafeHost() {
        return unsafeHost;
    }

    /**
     * Runs {@code command} with {@code workspace} as the working directory (seen as {@code /workspace} inside the
     * sandbox). Returns when the command and everything it started are gone, or when the time-out killed them.
     *
     * @param liveOutput receives output text as it is produced, up to the cap, on a reader thread; may be null
     * @throws InterruptedException the calling thread was interrupted; the command has been killed
     * @throws ShellUnavailableException bubblewrap is missing (and unsafe host mode is off), or the process could
     *                                   not be started
     */
    public ShellResult run(String command, Duration timeout, Path workspace, Consumer<String> liveOutput)
            throws ShellUnavailableException, InterruptedException {
        ProcessBuilder builder = processBuilder(command, workspace);
        Process process;
        try {
            process = builder.start();
        } catch (IOException e) {
            throw new ShellUnavailableException("could not start the command: " + e.getMessage());
        }
        OutputCollector collector = new OutputCollector(outputCapBytes, liveOutput);
        Thread reader = Thread.ofPlatform().daemon().name("agentbus-shell-output-" + process.pid())
                .start(() -> drain(process.getInputStream(), collector));
        ProcessTree tree = new ProcessTree(process.toHandle(), unsafeHost && SETSID.isPresent());
        boolean finished;
        try {
            finished = waitSampling(process, tree, timeout);
            if (finished) {
                tree.killLeftovers();
            } else {
                tree.killAll();
                process.waitFor(5, TimeUnit.SECONDS);
            }
            reader.join(DRAIN_GRACE);
        } catch (InterruptedException e) {
            // The worker is shutting down: the command must not run on unattended.
            tree.killAll();
            throw e;
        }
        if (reader.isAlive()) {
            // Something we could not see (an orphan in unsafe mode) still holds the pipe; give up on it rather
            // than on the tool call. The daemon reader ends when the pipe finally closes.
            LOG.warn("output of command still open {} after it ended; not waiting for it", DRAIN_GRACE);
        }
        return new ShellResult(finished ? process.exitValue() : -1, collector.text(), collector.omittedBytes(),
                !finished);
    }

    private static boolean waitSampling(Process process, ProcessTree tree, Duration timeout)
            throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            tree.sample();
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return false;
            }
            if (process.waitFor(Math.min(left, TimeUnit.MILLISECONDS.toNanos(POLL_MILLIS)), TimeUnit.NANOSECONDS)) {
                return true;
            }
        }
    }

    private ProcessBuilder processBuilder(String command, Path workspace) throws ShellUnavailableException {
        List<String> argv;
        if (unsafeHost) {
            argv = SETSID.isPresent()
                    ? List.of(SETSID.get().toString(), "--wait", "/bin/sh", "-c", command)
                    : List.of("/bin/sh", "-c", command);
        } else {
            Path bwrap = Bubblewrap.locate(bwrapPath).orElseThrow(() -> new ShellUnavailableException(BWRAP_MISSING));
            argv = Bubblewrap.command(bwrap, workspace, command);
        }
        ProcessBuilder builder = new ProcessBuilder(argv)
                .directory(workspace.toFile())
                .redirectErrorStream(true)
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        // Cleared for bwrap too (it clears again inside): the worker's secrets must not even reach the wrapper.
        Map<String, String> env = builder.environment();
        env.clear();
        if (unsafeHost) {
            env.put("PATH", Bubblewrap.SANDBOX_PATH);
            env.put("HOME", workspace.toString());
            env.put("LANG", "C.UTF-8");
            env.put("TMPDIR", "/tmp");
        }
        return builder;
    }

    private static void drain(InputStream in, OutputCollector collector) {
        byte[] buffer = new byte[8192];
        try (in) {
            int n;
            while ((n = in.read(buffer)) != -1) {
                collector.accept(buffer, n);
            }
        } catch (IOException e) {
            // The pipe was closed under us (process killed); what was read so far is the output.
        }
    }
}
