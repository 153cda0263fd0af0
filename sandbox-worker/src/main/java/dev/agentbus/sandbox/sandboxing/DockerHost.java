package dev.agentbus.sandbox.sandboxing;

import dev.agentbus.sandbox.shell.ShellProcess;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.file.Path;

/**
 * A Docker sandbox: one long-lived container per session (see {@link DockerEngine#createSandbox} for its
 * hardening), shells attached to it with exec. Killing everything is a restart of the container with no grace
 * period; the container's init then starts again and the workspace is untouched.
 *
 * <p>Who commands run as: never root; see {@link WorkspaceOwner}.
 */
final class DockerHost implements SandboxHost {
    private static final Logger LOG = LoggerFactory.getLogger(DockerHost.class);

    private final DockerEngine engine;
    private final SandboxConfig config;
    private final String name;
    private final String forWhom;
    private final String user;
    private String containerId;
    private Path workspace;
    /** The workspace was renamed: the container's bind mount names the old path, so a restart must recreate it. */
    private boolean moved;
    /** Kills the container's processes if this worker dies (see {@link DockerEngine#tie}). */
    private DockerEngine.Lifeline lifeline;

    private DockerHost(DockerEngine engine, SandboxConfig config, String name, String forWhom, String user,
                       String containerId, Path workspace) {
        this.engine = engine;
        this.config = config;
        this.name = name;
        this.forWhom = forWhom;
        this.user = user;
        this.containerId = containerId;
        this.workspace = workspace;
    }

    static DockerHost create(DockerEngine engine, Path workspace, SandboxConfig config, String name, String forWhom)
            throws SandboxException {
        String user = WorkspaceOwner.prepare(workspace, config.dockerUid()).user();
        try {
            DockerHost host = new DockerHost(engine, config, name, forWhom, user,
                    engine.createSandbox(name, workspace, config, user, forWhom), workspace);
            host.tie();
            return host;
        } catch (RuntimeException e) {
            throw new SandboxException("the Docker engine could not start the sandbox container: "
                    + e.getMessage(), e);
        }
    }

    @Override
    public String backend() {
        return "docker";
    }

    @Override
    public String workspacePath() {
        return "/workspace";
    }

    @Override
    public synchronized void moved(Path workspace) {
        this.workspace = workspace;
        this.moved = true;
    }

    /**
     * A failure here (the container stopped because the out-of-memory killer took its pid 1, the engine busy) is
     * the caller's to handle: {@link ShellSandbox} clears the sandbox with {@link #killAll} and tries again. A
     * refusal by the container's runtime (no pid left for the exec's init) is not an error of the API call: it
     * arrives as text on the exec's stream, and the shell's first command reports it.
     */
    @Override
    public synchronized ShellProcess startShell() throws SandboxException {
        try {
            if (lifeline == null || !lifeline.alive()) {
                tie(); // something in the sandbox killed it; a new shell is the moment to tie the container again
            }
            return engine.attachShell(containerId, user);
        } catch (RuntimeException e) {
            throw new SandboxException("could not start a shell in the sandbox container: " + e.getMessage(), e);
        }
    }

    @Override
    public synchronized void killAll() throws SandboxException {
        try {
            if (moved) {
                engine.remove(containerId);
                containerId = engine.createSandbox(name + "-" + System.nanoTime() % 100000, workspace, config,
                        user, forWhom);
                moved = false;
            } else {
                engine.restart(containerId); // the restart also ends the lifeline's exec
            }
            tie();
        } catch (RuntimeException e) {
            throw new SandboxException("could not restart the sandbox container: " + e.getMessage(), e);
        }
    }

    private void tie() {
        if (lifeline != null) {
            lifeline.close();
        }
        lifeline = engine.tie(containerId, user);
    }

    @Override
    public synchronized void close() {
        engine.remove(containerId);
        if (lifeline != null) {
            lifeline.close();
        }
        LOG.debug("sandbox container {} removed", containerId);
    }
}
