package dev.agentbus.sandbox.sandboxing;

import dev.agentbus.events.session.ShellState;
import dev.agentbus.sandbox.shell.PersistentShell;
import dev.agentbus.sandbox.shell.PersistentShell.Outcome;
import dev.agentbus.sandbox.shell.ShellQuoting;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

/**
 * A {@link Sandbox} on any backend: a {@link PersistentShell} running in a {@link SandboxHost}, plus the rules
 * that are the same everywhere:
 * <ul>
 *   <li>the state after each command is read from the shell and kept in two forms: the real variables (to set a
 *       new shell up again inside this worker) and the recordable, redacted {@link ShellState};</li>
 *   <li>a command that runs past its time-out is killed with everything else running in the sandbox, and a new
 *       shell starts in the state from before the command;</li>
 *   <li>a command that ends the shell ({@code exit 3}) gets its exit code, and the next command finds a new shell
 *       in the state the old one had at its end;</li>
 *   <li>a shell that vanished (killed by the out-of-memory killer) is replaced by a new one in the state from
 *       before the command.</li>
 *   <li>a shell that does not start is tried again a few times ({@link StartAttempts}), the sandbox cleared before
 *       each new try: a sandbox whose process table the last shell left full cannot start another.</li>
 * </ul>
 * One command at a time; the provider's reaper takes the lock only when no command runs.
 */
final class ShellSandbox implements Sandbox {
    private static final Logger LOG = LoggerFactory.getLogger(ShellSandbox.class);
    /** Generous: starting a container shell on a loaded machine can take a few seconds. */
    private static final Duration SETUP_TIMEOUT = Duration.ofSeconds(30);

    private final SandboxHost host;
    private final int outputCapBytes;
    private final StartAttempts startAttempts;
    private final ReentrantLock lock = new ReentrantLock();
    private PersistentShell shell;
    /** What a fresh shell exports by itself: the sandbox's fixed environment. */
    private Map<String, String> baseline = Map.of();
    /** The working directory (as recorded) and the real values of the changed variables. */
    private String cwd;
    private Map<String, String> env;
    private volatile long lastUsedNanos = System.nanoTime();
    private volatile boolean closed;

    ShellSandbox(SandboxHost host, int outputCapBytes, ShellState restore, StartAttempts startAttempts) {
        this.host = host;
        this.outputCapBytes = outputCapBytes;
        this.startAttempts = startAttempts;
        ShellState from = restore == null ? ShellState.INITIAL : restore;
        this.cwd = from.cwd();
        this.env = from.env();
    }

    /** Starts the shell now (a pooled sandbox does this before anyone asks). */
    void start() throws SandboxException, InterruptedException {
        lock.lock();
        try {
            ensureShell();
        } finally {
            lock.unlock();
        }
    }

    /** See {@link SandboxHost#moved}. */
    void moved(java.nio.file.Path workspace) {
        host.moved(workspace);
    }

    @Override
    public String backend() {
        return host.backend();
    }

    @Override
    public CommandResult shell(String command, Duration timeout, Consumer<String> liveOutput)
            throws SandboxException, InterruptedException {
        if (command.indexOf('\0') >= 0) {
            throw new SandboxException("the command contains a NUL character, which no shell can run");
        }
        lock.lock();
        try {
            return run(command, timeout, liveOutput, true);
        } finally {
            lastUsedNanos = System.nanoTime();
            lock.unlock();
        }
    }

    @Override
    public CommandResult exec(List<String> argv, String workdir, Duration timeout, Consumer<String> liveOutput)
            throws SandboxException, InterruptedException {
        if (argv == null || argv.isEmpty()) {
            throw new SandboxException("nothing to run: the argument list is empty");
        }
        String dir = ShellStates.toShellPath(workdir == null ? ShellState.INITIAL.cwd() : workdir,
                host.workspacePath());
        String line;
        try {
            // A subshell, so that the cd does not touch the session's shell; every word quoted, so nothing in argv
            // is expanded, split or taken as an operator.
            line = "( cd -- " + ShellQuoting.quote(dir) + " && exec " + ShellQuoting.command(argv) + " )";
        } catch (IllegalArgumentException e) {
            throw new SandboxException("an argument contains a NUL character, which no program can receive");
        }
        lock.lock();
        try {
            return run(line, timeout, liveOutput, false);
        } finally {
            lastUsedNanos = System.nanoTime();
            lock.unlock();
        }
    }

    @Override
    public ShellState state() {
        lock.lock();
        try {
            return recordable();
        } finally {
            lock.unlock();
        }
    }

    /** Counts as use: a sandbox just handed out is not reaped before its command takes the lock. */
    void touch() {
        lastUsedNanos = System.nanoTime();
    }

    /** How long since a command last ended. */
    Duration idleFor() {
        return Duration.ofNanos(System.nanoTime() - lastUsedNanos);
    }

    /** Closes the sandbox if no command is running and it has been idle at least {@code idle}. */
    boolean closeIfIdle(Duration idle) {
        if (!lock.tryLock()) {
            return false;
        }
        try {
            if (idleFor().compareTo(idle) < 0) {
                return false;
            }
            closeLocked();
            return true;
        } finally {
            lock.unlock();
        }
    }

    boolean isClosed() {
        return closed;
    }

    @Override
    public void close() {
        // Not waiting for the lock: closing must also stop a command that runs right now.
        closeLocked();
    }

    private void closeLocked() {
        if (closed) {
            return;
        }
        closed = true;
        if (shell != null) {
            shell.close();
        }
        host.close();
    }

    private CommandResult run(String command, Duration timeout, Consumer<String> liveOutput, boolean keepState)
            throws SandboxException, InterruptedException {
        ensureShell();
        Outcome outcome;
        try {
            outcome = shell.run(command, timeout, liveOutput);
        } catch (InterruptedException e) {
            // The worker is stopping: what the command started must not run on unattended.
            reset();
            throw e;
        }
        switch (outcome.status()) {
            case COMPLETED -> {
                if (keepState) {
                    remember(outcome);
                }
                return result(outcome);
            }
            case SHELL_EXITED -> {
                if (keepState) {
                    remember(outcome);
                }
                dropShell();
                return result(outcome);
            }
            case SHELL_LOST -> {
                // Killed from outside (out of memory, a kill -9 of the shell itself): what else it left running
                // goes too, and the next command gets a new shell in the state from before this one.
                reset();
                String note = "\n[the sandbox's shell was killed while running this command (out of memory, or "
                        + "killed); a new shell starts in the previous directory with the previous variables]\n";
                return new CommandResult(outcome.exitCode() >= 0 ? outcome.exitCode() : 137,
                        outcome.output() + note, outcome.omittedBytes(), false, recordable());
            }
            case TIMED_OUT -> {
                reset();
                return new CommandResult(-1, outcome.output(), outcome.omittedBytes(), true, recordable());
            }
        }
        throw new IllegalStateException("unknown status " + outcome.status());
    }

    private CommandResult result(Outcome outcome) {
        return new CommandResult(outcome.exitCode(), outcome.output(), outcome.omittedBytes(), false, recordable());
    }

    private void remember(Outcome outcome) {
        cwd = ShellStates.toRecordedPath(outcome.cwd(), host.workspacePath());
        env = ShellStates.changedFrom(baseline, outcome.exported());
    }

    private ShellState recordable() {
        return ShellStates.recordable(cwd, env);
    }

    /** Kills everything in the sandbox; the next command starts a new shell. */
    private void reset() throws SandboxException {
        dropShell();
        host.killAll();
    }

    private void dropShell() {
        if (shell != null) {
            shell.close();
            shell = null;
        }
    }

    private void ensureShell() throws SandboxException, InterruptedException {
        if (closed) {
            throw new SandboxException("this sandbox was closed (restarted or reaped); run the command again");
        }
        if (shell != null && shell.alive()) {
            return;
        }
        dropShell();
        // A shell that cannot start in a sandbox that is there means the sandbox is unusable as it is: most often
        // its process table is full (what the last shell left running when it exited, a fork bomb), and the
        // engine's exec or bwrap's clone finds no pid to start with. Clearing the sandbox (everything killed, the
        // container restarted) is what lets the next shell start; the workspace stays.
        shell = startAttempts.run(host.backend(), "shell", this::startShell, host::killAll);
        applyState();
    }

    /** One try: a new shell that has answered a first command, or the reason it did not. */
    private PersistentShell startShell() throws SandboxException, InterruptedException {
        if (closed) {
            throw new SandboxException("this sandbox was closed (restarted or reaped); run the command again");
        }
        PersistentShell started = PersistentShell.attach(host.startShell(), outputCapBytes);
        Outcome first = started.run("true", SETUP_TIMEOUT, null);
        if (first.status() != PersistentShell.Status.COMPLETED) {
            String said = (started.earlyOutput() + first.output()).strip();
            started.close();
            throw new SandboxException(said.isEmpty() ? first.status().toString() : said);
        }
        baseline = first.exported();
        return started;
    }

    private void applyState() throws SandboxException, InterruptedException {
        boolean startsThere = host.workspacePath().equals(ShellState.INITIAL.cwd());
        if (startsThere && cwd.equals(ShellState.INITIAL.cwd()) && env.isEmpty()) {
            return; // a fresh shell already is in this state
        }
        Outcome restored = shell.run(ShellStates.restoreScript(cwd, env, host.workspacePath()), SETUP_TIMEOUT, null);
        if (restored.status() != PersistentShell.Status.COMPLETED) {
            dropShell();
            throw new SandboxException("could not restore the shell's directory and variables: "
                    + restored.output().strip());
        }
        remember(restored);
        LOG.debug("shell restored to {}", cwd);
    }
}
