package dev.agentbus.sandbox.sandboxing;

import dev.agentbus.sandbox.workspace.AtomicFiles;

import java.nio.file.Path;
import java.util.Optional;

/**
 * Docker sandboxes: a container per session ({@link DockerHost}), or per user with
 * {@code agentbus.sandbox.scope=user} ({@link SharedContainers}).
 */
record DockerBackend(DockerEngine engine, SandboxConfig config, SharedContainers users) implements Backend {

    /**
     * The engine if it answers and has the sandbox image, and, for a worker that is root, if no account of the host
     * has the uid the sandboxes would run as.
     */
    static BackendChoice.Probe probe(SandboxConfig config) {
        return probe(config, HostAccounts.ofThisHost(), AtomicFiles.workerIsRoot());
    }

    static BackendChoice.Probe probe(SandboxConfig config, HostAccounts accounts, boolean workerIsRoot) {
        if (workerIsRoot) {
            Optional<String> conflict = accounts.conflictWith(config.dockerUid());
            if (conflict.isPresent()) {
                return BackendChoice.Probe.missing(conflict.get());
            }
        }
        Optional<DockerEngine> engine = DockerEngine.connect(config.dockerHost());
        if (engine.isEmpty()) {
            return BackendChoice.Probe.missing("no Docker engine answers");
        }
        if (!engine.get().hasImage(config.image())) {
            engine.get().close();
            return BackendChoice.Probe.missing("the Docker engine has no image " + config.image()
                    + " (build it with deploy/sandbox-image/build.sh)");
        }
        return BackendChoice.Probe.found(new DockerBackend(engine.get(), config, new SharedContainers(config.dockerUid())));
    }

    @Override
    public String name() {
        return "docker";
    }

    @Override
    public SandboxHost newHost(SandboxKey key, Path workspace) throws SandboxException {
        if (perUser() && !key.isPooled()) {
            return users.view(key.userId(), key.sessionId(), workspace, userDirectory -> DockerHost.create(engine,
                    userDirectory, config, SandboxKey.uniqueName(key.userId()), key.userId()));
        }
        return DockerHost.create(engine, workspace, config, key.uniqueName(), key.toString());
    }

    @Override
    public boolean limitsProcesses() {
        return true;
    }

    /** A user's container mounts the user's directory: there is no empty workspace to hand over. */
    @Override
    public boolean canPool() {
        return !perUser();
    }

    /** Removes the containers a previous run of this worker left (it was killed before it could). */
    int removeLeftovers() {
        return engine.removeLeftovers(config.workerId());
    }

    @Override
    public void close() {
        engine.close();
    }

    private boolean perUser() {
        return config.scope() == SandboxConfig.Scope.USER;
    }
}
