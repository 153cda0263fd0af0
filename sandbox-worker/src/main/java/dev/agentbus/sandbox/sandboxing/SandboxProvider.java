package dev.agentbus.sandbox.sandboxing;

/**
 * Hands out sandboxes: the one already running for the spec's session (or user, by configuration), or a new one.
 * Implementations decide the backend, pool and reap sandboxes. Thread-safe.
 */
public interface SandboxProvider extends AutoCloseable {

    /** The sandbox for this session, started (from {@code spec.restore()}) if none is running. */
    Sandbox acquire(SandboxSpec spec) throws SandboxException;

    /** Destroys the session's sandbox and starts a fresh one from {@code spec.restore()} ({@code restart_terminal}). */
    Sandbox restart(SandboxSpec spec) throws SandboxException;

    /**
     * Destroys the session's sandbox, if one runs here, without starting another: for a worker that gives the
     * session's partition away, so that its sandbox (whose state the log now moves past) is not reused later.
     * The workspace stays.
     */
    default void release(SandboxSpec spec) {
    }

    /** The backend new sandboxes get: {@code docker}, {@code bubblewrap} or {@code host}. */
    String backend();

    @Override
    void close();
}
