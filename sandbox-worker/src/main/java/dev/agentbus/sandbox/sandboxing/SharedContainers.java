package dev.agentbus.sandbox.sandboxing;

import dev.agentbus.sandbox.shell.ShellProcess;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * One Docker container per user, shared by the user's sessions ({@code agentbus.sandbox.scope=user}). The container
 * mounts the user's directory ({@code <root>/<user>}) at {@code /workspace}; each session gets a {@link View}: its
 * own shell, started in {@code /workspace/<session>}, with recorded paths still relative to the session (so the
 * log reads the same in both scopes). The container lives while any session of the user holds a view.
 *
 * <p>What the sessions of one user share: processes (one can see and kill the other's), {@code /tmp}, a tmux
 * server, the limits, and each other's workspaces. Different users never share a container.
 */
final class SharedContainers {
    /** The user's container and how many sessions use it. */
    private static final class Shared {
        private final DockerHost host;
        private int views;

        Shared(DockerHost host) {
            this.host = host;
        }
    }

    private final Map<String, Shared> byUser = new HashMap<>();
    private final int sandboxUid;

    /** {@code sandboxUid}: who a root worker hands the workspaces to ({@link WorkspaceOwner}). */
    SharedContainers(int sandboxUid) {
        this.sandboxUid = sandboxUid;
    }

    /**
     * A view of {@code userId}'s container for one session, creating the container if the user has none.
     *
     * @param create makes the user's container around the user's directory
     */
    synchronized SandboxHost view(String userId, String sessionId, Path sessionWorkspace, HostFactory create)
            throws SandboxException {
        // A session directory made after the container started belongs to the worker: hand it to the sandbox user.
        WorkspaceOwner.prepare(sessionWorkspace, sandboxUid);
        Shared shared = byUser.get(userId);
        if (shared == null) {
            shared = new Shared(create.create(sessionWorkspace.getParent()));
            byUser.put(userId, shared);
        }
        shared.views++;
        return new View(userId, shared, sessionId);
    }

    private synchronized void release(String userId, Shared shared) {
        shared.views--;
        if (shared.views == 0 && byUser.get(userId) == shared) {
            byUser.remove(userId);
            shared.host.close();
        }
    }

    @FunctionalInterface
    interface HostFactory {
        DockerHost create(Path userDirectory) throws SandboxException;
    }

    /** One session's window on its user's container. */
    private final class View implements SandboxHost {
        private final String userId;
        private final Shared shared;
        private final String sessionId;
        private boolean closed;

        View(String userId, Shared shared, String sessionId) {
            this.userId = userId;
            this.shared = shared;
            this.sessionId = sessionId;
        }

        @Override
        public String backend() {
            return shared.host.backend();
        }

        @Override
        public String workspacePath() {
            return "/workspace/" + sessionId;
        }

        @Override
        public ShellProcess startShell() throws SandboxException {
            return shared.host.startShell();
        }

        /** Restarts the user's container: the user's other sessions lose their running processes too. */
        @Override
        public void killAll() throws SandboxException {
            shared.host.killAll();
        }

        @Override
        public void moved(Path workspace) {
            // Never pooled.
        }

        @Override
        public synchronized void close() {
            if (!closed) {
                closed = true;
                release(userId, shared);
            }
        }
    }
}
