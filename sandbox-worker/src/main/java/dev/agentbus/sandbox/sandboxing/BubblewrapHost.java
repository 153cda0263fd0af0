package dev.agentbus.sandbox.sandboxing;

import dev.agentbus.sandbox.shell.Bubblewrap;
import dev.agentbus.sandbox.shell.ProcessShell;
import dev.agentbus.sandbox.shell.ShellProcess;
import dev.agentbus.sandbox.shell.UserModeNetwork;
import dev.agentbus.sandbox.workspace.AtomicFiles;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A bubblewrap sandbox: one {@code bwrap} process with its own namespaces (mount, pid, network, ipc, uts, user,
 * cgroup) whose first process is the persistent {@code /bin/sh}. The workspace, bound at {@code /workspace}, is
 * the only writable place besides a private {@code /tmp}. Everything the sandbox runs lives in its pid namespace
 * and its control group, and dies with them.
 *
 * <p>The network: none, or with {@code agentbus.sandbox.network=true} a namespace of its own connected by slirp4netns
 * ({@link UserModeNetwork}), from which the host's loopback cannot be reached.
 *
 * <p>The user: commands see uid/gid 1000 in a user namespace that maps it to the worker's own uid, so files they
 * create belong to the worker on the host, like the files the file tools write (see {@link #closeParentToOthers}
 * for a worker that is root). Nested user namespaces are disabled where bubblewrap can (0.8 and later).
 *
 * <p>Limits: the sandbox's control group (see {@link Cgroups}) is joined by a tiny host-side {@code sh} before it
 * execs bwrap, so not a single process of the sandbox ever runs outside it. Without writable control groups the
 * address-space rlimit still caps each process's memory, but there is no process-count limit (RLIMIT_NPROC counts
 * every thread of the worker's user, the JVM's included, so it cannot be used as one): the time-out is then what
 * ends a fork bomb. The worker logs this at start.
 */
final class BubblewrapHost implements SandboxHost {
    private static final Logger LOG = LoggerFactory.getLogger(BubblewrapHost.class);
    /** The uid and gid the agent's commands see (the same as in the Docker image). */
    static final int SANDBOX_UID = WorkspaceOwner.SANDBOX_ID;

    private final Path bwrap;
    private Path workspace;
    private final SandboxConfig config;
    private final Optional<Cgroups> cgroups;
    private final String name;
    private Cgroups.Group group;
    private ProcessShell current;

    BubblewrapHost(Path bwrap, Path workspace, SandboxConfig config, Optional<Cgroups> cgroups, String name) {
        this.bwrap = bwrap;
        this.workspace = workspace;
        this.config = config;
        this.cgroups = cgroups;
        this.name = name;
    }

    @Override
    public String backend() {
        return "bubblewrap";
    }

    @Override
    public String workspacePath() {
        return Bubblewrap.SANDBOX_WORKSPACE;
    }

    @Override
    public synchronized ShellProcess startShell() throws SandboxException {
        if (current != null) {
            // The previous shell has ended, and bwrap's pid namespace with it: its processes are being killed by the
            // kernel but count against the group's pids limit until they are gone. A new bwrap forked into a group
            // still full of them fails ("Creating new namespace failed: Resource temporarily unavailable").
            killAll();
        }
        List<String> argv = new ArrayList<>();
        try {
            if (cgroups.isPresent() && group == null) {
                group = cgroups.get().create(name, config.limits());
            }
        } catch (IOException e) {
            throw new SandboxException("could not create the sandbox's control group: " + e.getMessage(), e);
        }
        if (group != null) {
            // Joins every listed group, then becomes bwrap: the pid that joined is bwrap's own.
            argv.addAll(List.of("/bin/sh", "-c",
                    "while [ \"$1\" != -- ]; do echo $$ > \"$1\" || exit 125; shift; done; shift; exec \"$@\"",
                    "join-cgroup"));
            group.procsFiles().forEach(file -> argv.add(file.toString()));
            argv.add("--");
        } else {
            if (Files.isExecutable(Path.of("/usr/bin/prlimit"))) {
                argv.addAll(List.of("/usr/bin/prlimit", "--as=" + config.limits().memoryBytes(), "--"));
            }
        }
        if (AtomicFiles.workerIsRoot()) {
            closeParentToOthers();
        }
        Path slirp4netns = null;
        if (config.network()) {
            // Checked at start (BubblewrapBackend.probe); gone since, the sandbox gets no network rather than the host's.
            slirp4netns = UserModeNetwork.find(config.slirp4netnsPath()).orElseThrow(() -> new SandboxException(
                    "slirp4netns (" + config.slirp4netnsPath() + "), which gives the sandbox its network, is gone"));
        }
        argv.addAll(Bubblewrap.persistentShell(bwrap, workspace, slirp4netns, SANDBOX_UID, SANDBOX_UID));
        // Started in /: the host-side working directory does not matter (bwrap changes to /workspace inside), and
        // a missing workspace should be reported by bwrap, in its words.
        ProcessBuilder builder = new ProcessBuilder(argv)
                .directory(new java.io.File("/"))
                .redirectErrorStream(true);
        // The worker's own environment (credentials, API keys) must not even reach the wrapper.
        builder.environment().clear();
        builder.environment().put("PATH", Bubblewrap.SANDBOX_PATH);
        try {
            current = new ProcessShell(builder.start());
            return current;
        } catch (IOException e) {
            throw new SandboxException("could not start bubblewrap: " + e.getMessage(), e);
        }
    }

    /**
     * A worker running as root maps the sandbox's user to host root (bubblewrap cannot drop to another host user
     * and still reach a workspace under a root-only directory), so a file made in the sandbox is root's on the
     * host, and the sandbox may set its setuid bit. It cannot use that bit itself (no-new-privileges, nosuid), and
     * nobody else on the host can reach it if the directory above the workspace, which the sandbox cannot see or
     * change, is closed to group and others. So it is, here.
     */
    private void closeParentToOthers() throws SandboxException {
        Path parent = workspace.toAbsolutePath().getParent();
        try {
            java.util.Set<PosixFilePermission> mode = Files.getPosixFilePermissions(parent);
            if (mode.removeIf(p -> p.name().startsWith("GROUP") || p.name().startsWith("OTHERS"))) {
                Files.setPosixFilePermissions(parent, mode);
            }
        } catch (IOException | UnsupportedOperationException e) {
            throw new SandboxException("could not close the workspace's parent directory to other users: " + e, e);
        }
    }

    @Override
    public synchronized void moved(Path workspace) {
        this.workspace = workspace;
    }

    @Override
    public synchronized void killAll() {
        if (group != null) {
            group.killAll();
        }
        if (current != null) {
            // bwrap is pid 1's parent and --die-with-parent is set: killing it ends the whole pid namespace.
            current.destroy();
        }
    }

    @Override
    public synchronized void close() {
        killAll();
        if (group != null) {
            group.remove();
            group = null;
        }
        LOG.debug("bubblewrap sandbox {} closed", name);
    }
}
