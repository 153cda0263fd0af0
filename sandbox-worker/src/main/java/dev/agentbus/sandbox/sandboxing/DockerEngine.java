package dev.agentbus.sandbox.sandboxing;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.async.ResultCallback;
import com.github.dockerjava.api.exception.NotFoundException;
import com.github.dockerjava.api.model.Capability;
import com.github.dockerjava.api.model.Container;
import com.github.dockerjava.api.model.Frame;
import com.github.dockerjava.api.model.HostConfig;
import com.github.dockerjava.api.model.Mount;
import com.github.dockerjava.api.model.MountType;
import com.github.dockerjava.core.DefaultDockerClientConfig;
import com.github.dockerjava.core.DockerClientImpl;
import com.github.dockerjava.zerodep.ZerodepDockerHttpClient;
import dev.agentbus.sandbox.shell.Bubblewrap;
import dev.agentbus.sandbox.shell.BytePipe;
import dev.agentbus.sandbox.shell.ShellProcess;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The worker's connection to a Docker engine, through docker-java over the engine's API (no docker CLI). Knows how
 * to create a hardened sandbox container and to attach a shell to it.
 */
final class DockerEngine implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(DockerEngine.class);
    /** Every sandbox container carries it; the value is the worker id, so a worker finds what it left behind. */
    static final String LABEL = "dev.agentbus.sandbox.worker";
    static final String SESSION_LABEL = "dev.agentbus.sandbox.for";

    private final DockerClient client;

    private DockerEngine(DockerClient client) {
        this.client = client;
    }

    /** The engine at {@code dockerHost} (blank: DOCKER_HOST or the local socket) if it answers a ping quickly. */
    static Optional<DockerEngine> connect(String dockerHost) {
        try {
            DefaultDockerClientConfig.Builder config = DefaultDockerClientConfig.createDefaultConfigBuilder();
            if (!dockerHost.isBlank()) {
                config.withDockerHost(dockerHost);
            }
            DefaultDockerClientConfig built = config.build();
            ZerodepDockerHttpClient http = new ZerodepDockerHttpClient.Builder()
                    .dockerHost(built.getDockerHost())
                    .sslConfig(built.getSSLConfig())
                    // Every live sandbox holds two hijacked connections for as long as it lives (its shell and its
                    // lifeline, see tie): the pool must be far larger than the sandboxes a worker keeps, or a new
                    // sandbox waits for a connection until it times out.
                    .maxConnections(4096)
                    .connectionTimeout(Duration.ofSeconds(3))
                    .responseTimeout(Duration.ofSeconds(60))
                    .build();
            DockerClient client = DockerClientImpl.getInstance(built, http);
            CompletableFuture<Void> ping = CompletableFuture.runAsync(() -> client.pingCmd().exec());
            ping.get(5, TimeUnit.SECONDS);
            return Optional.of(new DockerEngine(client));
        } catch (Exception e) {
            LOG.info("no Docker engine answers{}: {}", dockerHost.isBlank() ? "" : " at " + dockerHost, e.toString());
            return Optional.empty();
        }
    }

    boolean hasImage(String image) {
        try {
            client.inspectImageCmd(image).exec();
            return true;
        } catch (NotFoundException e) {
            return false;
        }
    }

    /**
     * Creates and starts a sandbox container: read-only root, a tmpfs {@code /tmp}, the workspace the only writable
     * mount, no capabilities, no-new-privileges, the engine's default seccomp profile (not overridden), the
     * pids/memory/CPU limits, no network unless allowed. Its pid 1 is a shell loop that only sleeps and waits, so
     * the container lives between commands (shells are attached to it with exec), and reaps the orphans the
     * sandbox leaves. Not Docker's own init: its child can be killed from inside ({@code kill -9 -1} reaches every
     * process but pid 1), and the container would stop with it; pid 1 itself cannot be killed from inside.
     */
    String createSandbox(String name, Path workspace, SandboxConfig config, String user, String forWhom) {
        SandboxConfig.Limits limits = config.limits();
        HostConfig host = HostConfig.newHostConfig()
                .withReadonlyRootfs(true)
                .withTmpFs(Map.of("/tmp", "rw,nosuid,nodev,size=" + Math.max(16, limits.memoryBytes() / 4 / 1048576)
                        + "m,mode=1777"))
                // A mount, not a "bind" string: the engine refuses a missing source instead of creating an empty
                // directory there, so a sandbox never silently gets an empty workspace.
                .withMounts(List.of(new Mount().withType(MountType.BIND).withSource(workspace.toString())
                        .withTarget(Bubblewrap.SANDBOX_WORKSPACE)))
                .withCapDrop(Capability.ALL)
                .withSecurityOpts(List.of("no-new-privileges"))
                .withPidsLimit((long) limits.pids())
                .withMemory(limits.memoryBytes())
                .withMemorySwap(limits.memoryBytes())
                .withNanoCPUs(Math.round(limits.cpus() * 1e9))
                .withNetworkMode(config.network() ? "bridge" : "none");
        String id = client.createContainerCmd(config.image())
                .withName(name)
                .withHostName("sandbox")
                .withUser(user)
                .withWorkingDir(Bubblewrap.SANDBOX_WORKSPACE)
                .withEnv("PATH=" + Bubblewrap.SANDBOX_PATH, "HOME=" + Bubblewrap.SANDBOX_WORKSPACE, "LANG=C.UTF-8",
                        "TMPDIR=/tmp")
                .withEntrypoint(List.of())
                .withCmd("/bin/sh", "-c", "trap '' HUP INT TERM; while :; do sleep 3600 & wait; done")
                .withLabels(Map.of(LABEL, config.workerId(), SESSION_LABEL, forWhom))
                .withHostConfig(host)
                .exec()
                .getId();
        try {
            client.startContainerCmd(id).exec();
        } catch (RuntimeException e) {
            remove(id);
            throw e;
        }
        return id;
    }

    /** A {@code /bin/sh} in the container with its stdin and output attached over the engine's API. */
    ShellProcess attachShell(String containerId, String user) {
        String execId = client.execCreateCmd(containerId)
                .withAttachStdin(true).withAttachStdout(true).withAttachStderr(true)
                .withUser(user)
                .withWorkingDir(Bubblewrap.SANDBOX_WORKSPACE)
                .withCmd("/bin/sh")
                .exec().getId();
        BytePipe stdin = new BytePipe();
        BytePipe output = new BytePipe();
        ResultCallback.Adapter<Frame> frames = new ResultCallback.Adapter<>() {
            @Override
            public void onNext(Frame frame) {
                try {
                    output.sink().write(frame.getPayload());
                } catch (IOException e) {
                    // The reader is gone (the shell was dropped); nothing to deliver to.
                }
            }

            @Override
            public void onError(Throwable throwable) {
                output.close();
                super.onError(throwable);
            }

            @Override
            public void onComplete() {
                output.close();
                super.onComplete();
            }
        };
        client.execStartCmd(execId).withStdIn(stdin.source()).exec(frames);
        return new DockerShell(execId, stdin, output, frames);
    }

    /**
     * Ties the container's processes to this worker's life. A killed worker cannot stop what its sandboxes run, and a
     * container, unlike a bubblewrap sandbox ({@code --die-with-parent}), outlives the client that started it: a
     * command cut short by a worker crash would run on to its end, and the call reported "interrupted, not re-run"
     * would in fact have finished. So each container gets one exec that waits on a stdin nobody writes and, at
     * end-of-file, kills every process in the container but pid 1. When the worker dies the kernel closes its
     * connection to the engine, the engine closes the exec's stdin, and the sandbox's commands die with the worker.
     * One process: {@code read} and {@code kill} are built-ins of the image's {@code sh}.
     */
    Lifeline tie(String containerId, String user) {
        String execId = client.execCreateCmd(containerId)
                .withAttachStdin(true).withAttachStdout(true).withAttachStderr(true)
                .withUser(user)
                .withCmd("/bin/sh", "-c", "read -r _; kill -9 -1")
                .exec().getId();
        BytePipe stdin = new BytePipe();
        Lifeline lifeline = new Lifeline(stdin);
        client.execStartCmd(execId).withStdIn(stdin.source()).exec(lifeline);
        return lifeline;
    }

    /** The exec that {@link #tie} leaves waiting in a container. */
    static final class Lifeline extends ResultCallback.Adapter<Frame> {
        private final BytePipe stdin;
        private volatile boolean ended;

        private Lifeline(BytePipe stdin) {
            this.stdin = stdin;
        }

        /** False once the exec has ended: a restart of the container, or something inside killed it. */
        boolean alive() {
            return !ended;
        }

        @Override
        public void onError(Throwable throwable) {
            ended = true;
            super.onError(throwable);
        }

        @Override
        public void onComplete() {
            ended = true;
            super.onComplete();
        }

        /** Lets go of the container (its end-of-file kills what still runs there). */
        @Override
        public void close() {
            ended = true;
            stdin.close();
            try {
                super.close();
            } catch (IOException e) {
                // closing a finished stream
            }
        }
    }

    /** Kills every process in the container and starts it again: the workspace stays, {@code /tmp} is new. */
    void restart(String containerId) {
        client.restartContainerCmd(containerId).withTimeout(0).exec();
    }

    void remove(String containerId) {
        try {
            client.removeContainerCmd(containerId).withForce(true).withRemoveVolumes(true).exec();
        } catch (NotFoundException e) {
            // Already gone.
        } catch (RuntimeException e) {
            LOG.warn("could not remove sandbox container {}: {}", containerId, e.toString());
        }
    }

    /** Removes the containers a previous run of this worker left behind (it was killed before it could). */
    int removeLeftovers(String workerId) {
        List<Container> left = client.listContainersCmd().withShowAll(true)
                .withLabelFilter(Map.of(LABEL, workerId)).exec();
        left.forEach(container -> remove(container.getId()));
        return left.size();
    }

    @Override
    public void close() {
        try {
            client.close();
        } catch (IOException e) {
            LOG.debug("closing the Docker client: {}", e.toString());
        }
    }

    /** The attached exec session of one shell. */
    private final class DockerShell implements ShellProcess {
        private final String execId;
        private final BytePipe stdin;
        private final BytePipe output;
        private final ResultCallback.Adapter<Frame> frames;

        DockerShell(String execId, BytePipe stdin, BytePipe output, ResultCallback.Adapter<Frame> frames) {
            this.execId = execId;
            this.stdin = stdin;
            this.output = output;
            this.frames = frames;
        }

        @Override
        public OutputStream stdin() {
            return stdin.sink();
        }

        @Override
        public InputStream output() {
            return output.source();
        }

        @Override
        public OptionalInt exitStatus() {
            try {
                for (int i = 0; i < 20; i++) {
                    var inspect = client.inspectExecCmd(execId).exec();
                    if (!Boolean.TRUE.equals(inspect.isRunning()) && inspect.getExitCodeLong() != null) {
                        return OptionalInt.of(inspect.getExitCodeLong().intValue());
                    }
                    Thread.sleep(10);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (RuntimeException e) {
                // The container is gone; the status is unknown.
            }
            return OptionalInt.empty();
        }

        @Override
        public void destroy() {
            stdin.close();
            output.close();
            try {
                frames.close();
            } catch (IOException e) {
                // Closing a finished stream.
            }
        }
    }
}
