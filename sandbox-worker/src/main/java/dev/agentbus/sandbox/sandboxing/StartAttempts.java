package dev.agentbus.sandbox.sandboxing;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;

/**
 * How often a sandbox (its container) or its shell is tried before the tool call fails. Starting can fail for a
 * moment: an engine under load, a sandbox whose processes are still being killed. Each failure is logged with its
 * reason, the sandbox is cleared (see the callers), and the next try waits a little longer (the pause grows
 * fourfold). What still fails after the last try is a {@link SandboxException} that names the backend and what
 * the engine said; it ends the tool call, never the worker.
 *
 * @param attempts   tries in all (at least 1)
 * @param firstPause the wait before the second try
 * @param sleeper    how to wait (tests pass one that does not)
 */
record StartAttempts(int attempts, Duration firstPause, Sleeper sleeper) {
    private static final Logger LOG = LoggerFactory.getLogger(StartAttempts.class);

    /** Three tries, 0.2 s and 0.8 s apart: short enough for a tool call, long enough for a container restart. */
    static final StartAttempts DEFAULT = new StartAttempts(3, Duration.ofMillis(200), Thread::sleep);

    StartAttempts {
        if (attempts < 1) {
            throw new IllegalArgumentException("at least one attempt, got " + attempts);
        }
    }

    @FunctionalInterface
    interface Sleeper {
        void sleep(Duration pause) throws InterruptedException;
    }

    /** One try at starting something. */
    @FunctionalInterface
    interface Start<T> {
        T run() throws SandboxException, InterruptedException;
    }

    /** What to do between a failed try and the next one (clear the sandbox). */
    @FunctionalInterface
    interface Recovery {
        void run() throws SandboxException, InterruptedException;
    }

    /**
     * Runs {@code start} until it succeeds or the attempts are used up.
     *
     * @param what    what is started, for the messages: "container", "shell"
     * @param backend {@code docker}, {@code bubblewrap} or {@code host}
     * @param between runs after each failed try but the last; a failure of its own is logged, and the next try
     *                tells whether it mattered
     */
    <T> T run(String backend, String what, Start<T> start, Recovery between)
            throws SandboxException, InterruptedException {
        Duration pause = firstPause;
        for (int attempt = 1; ; attempt++) {
            try {
                return start.run();
            } catch (SandboxException e) {
                if (attempt >= attempts) {
                    throw new SandboxException("the " + backend + " sandbox's " + what + " did not start"
                            + (attempts > 1 ? " (" + attempts + " attempts)" : "") + ": " + e.getMessage(), e);
                }
                LOG.warn("the {} sandbox's {} did not start (attempt {} of {}), trying again in {} ms: {}", backend,
                        what, attempt, attempts, pause.toMillis(), e.getMessage());
                try {
                    between.run();
                } catch (SandboxException cleared) {
                    LOG.warn("could not clear the {} sandbox before trying again: {}", backend, cleared.getMessage());
                }
                sleeper.sleep(pause);
                pause = pause.multipliedBy(4);
            }
        }
    }
}
