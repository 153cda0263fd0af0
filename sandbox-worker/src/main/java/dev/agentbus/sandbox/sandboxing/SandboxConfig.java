package dev.agentbus.sandbox.sandboxing;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Objects;

/**
 * How the worker builds sandboxes; read from {@code agentbus.sandbox.*} (see docs/sandbox.md for every key).
 *
 * @param backend       which backend to use: {@code auto} picks Docker when an engine answers and has the image,
 *                      else bubblewrap, else every command is refused
 * @param unsafeHost    run commands directly on the host with no isolation (development only; wins over backend)
 * @param bwrapPath     the bubblewrap executable (absolute, or a name looked up on PATH)
 * @param dockerHost    the engine's address; blank for the default ({@code DOCKER_HOST} or the local socket)
 * @param image         the sandbox image for Docker (built by deploy/sandbox-image/build.sh)
 * @param limits        processes, memory and CPU of one sandbox
 * @param network       give sandboxes network access (off: loopback only)
 * @param idleTimeout   a sandbox unused this long is destroyed; its state lives on in the session's log
 * @param poolSize      sandboxes kept started in advance for new sessions (0: none)
 * @param poolDirectory where pooled sandboxes' empty workspaces wait; must be on the same file system as the
 *                      workspaces, because taking one from the pool renames its directory into place
 * @param outputCapBytes the most output kept of one command (more is counted and dropped)
 * @param workerId      labels this worker's containers (and names its cgroup and pool), so a restarted worker removes
 *                      the ones its predecessor left; {@link #workerIdFor} makes it unique per installation
 * @param scope         one sandbox per session (default), or one Docker container per user shared by the user's
 *                      sessions
 * @param slirp4netnsPath the slirp4netns executable, which gives a bubblewrap sandbox with {@code network} a network
 *                      namespace of its own (absolute, or a name looked up on PATH)
 * @param dockerUid     the uid (and gid) Docker sandboxes run as when the worker is root: one no account of the host
 *                      has, so that a process escaping the container is nobody there
 */
public record SandboxConfig(Backend backend, boolean unsafeHost, String bwrapPath, String dockerHost, String image,
                            Limits limits, boolean network, Duration idleTimeout, int poolSize, Path poolDirectory,
                            int outputCapBytes, String workerId, Scope scope, String slirp4netnsPath,
                            int dockerUid) {

    /**
     * The worker's id among every Agentbus installation that shares the Docker engine or the host: its replica number
     * and a digest of the workspace root it serves. The replica number alone ("0") is the same in every installation,
     * so a worker starting up would remove another installation's sandboxes as "left by a previous run"; two
     * installations cannot share a workspace root, so the pair is theirs alone. Only letters, digits and '-', as
     * container labels, pod labels and cgroup names all accept.
     */
    public static String workerIdFor(String instanceId, Path workspaceRoot) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(
                    workspaceRoot.toAbsolutePath().normalize().toString().getBytes(StandardCharsets.UTF_8));
            String root = HexFormat.of().formatHex(digest, 0, 6);
            String replica = instanceId == null || instanceId.isBlank() ? "0"
                    : instanceId.replaceAll("[^A-Za-z0-9-]", "-");
            return replica + "-" + root;
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }

    /** The configured choice of backend. */
    public enum Backend {
        AUTO, DOCKER, BUBBLEWRAP, KUBERNETES;

        /** Reads {@code auto}, {@code docker}, {@code bubblewrap} or {@code kubernetes} (any case); else an error. */
        public static Backend parse(String text) {
            try {
                return valueOf(text.trim().toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException | NullPointerException e) {
                throw new IllegalArgumentException("agentbus.sandbox.backend must be auto, docker, bubblewrap or kubernetes, "
                        + "got '" + text + "'");
            }
        }
    }

    /** Who shares a sandbox. */
    public enum Scope {
        /** Every session its own sandbox. */
        SESSION,
        /**
         * One Docker container per user; each session of the user has its own shell in it, starting in its own
         * workspace ({@code /workspace/<session>} inside, the user's directory being {@code /workspace}). The
         * sessions share processes, {@code /tmp} and the limits. Docker only: bubblewrap has no way to start a
         * second shell in a running sandbox, so it keeps one sandbox per session.
         */
        USER;

        /** Reads {@code session} or {@code user} (any case); anything else is an error. */
        public static Scope parse(String text) {
            try {
                return valueOf(text.trim().toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException | NullPointerException e) {
                throw new IllegalArgumentException("agentbus.sandbox.scope must be session or user, got '" + text
                        + "'");
            }
        }
    }

    /**
     * @param pids        the most processes (and threads) alive at once: a fork bomb stops here
     * @param memoryBytes memory including {@code /tmp} (a tmpfs); beyond it the kernel kills inside the sandbox
     * @param cpus        CPU time as a number of cores (0.9: 90 % of one core)
     */
    public record Limits(int pids, long memoryBytes, double cpus) {
        public Limits {
            if (pids < 8 || memoryBytes < 32L * 1024 * 1024 || cpus <= 0) {
                throw new IllegalArgumentException("sandbox limits too small: pids " + pids + " (at least 8), memory "
                        + memoryBytes + " bytes (at least 32 MiB), cpus " + cpus + " (more than 0)");
            }
        }

        /** 128 processes, 512 MiB, 0.9 CPU. */
        public static Limits defaults() {
            return new Limits(128, 512L * 1024 * 1024, 0.9);
        }
    }

    public static final String DEFAULT_IMAGE = "agentbus-sandbox:1";

    /** High enough that no account of a usual host has it (useradd gives 1000 up, systemd's dynamic users 61184 up). */
    public static final int DEFAULT_DOCKER_UID = 64_100;

    /** The environment variable an operator sets to allow host execution; named in refusal messages. */
    public static final String UNSAFE_HOST_ENV = "AGENTBUS_SANDBOX_UNSAFE_HOST";

    public SandboxConfig {
        Objects.requireNonNull(backend, "backend");
        Objects.requireNonNull(limits, "limits");
        bwrapPath = bwrapPath == null || bwrapPath.isBlank() ? "bwrap" : bwrapPath;
        dockerHost = dockerHost == null ? "" : dockerHost.trim();
        image = image == null || image.isBlank() ? DEFAULT_IMAGE : image;
        idleTimeout = idleTimeout == null ? Duration.ofMinutes(15) : idleTimeout;
        workerId = workerId == null || workerId.isBlank() ? "worker" : workerId;
        scope = scope == null ? Scope.SESSION : scope;
        slirp4netnsPath = slirp4netnsPath == null || slirp4netnsPath.isBlank() ? "slirp4netns" : slirp4netnsPath;
        if (dockerUid < 1 || dockerUid > 2_147_483_646) {
            throw new IllegalArgumentException("agentbus.sandbox.docker-uid must be a uid other than root's, not "
                    + dockerUid);
        }
        if (poolSize < 0) {
            throw new IllegalArgumentException("agentbus.sandbox.pool-size must not be negative");
        }
        if (poolSize > 0 && poolDirectory == null) {
            throw new IllegalArgumentException("a sandbox pool needs a pool directory");
        }
        if (outputCapBytes <= 0) {
            throw new IllegalArgumentException("outputCapBytes must be positive");
        }
    }

    /** Defaults for everything: auto backend, sandboxed, default image and limits, no network, no pool. */
    public static SandboxConfig defaults() {
        return new SandboxConfig(Backend.AUTO, false, "bwrap", "", DEFAULT_IMAGE, Limits.defaults(), false,
                Duration.ofMinutes(15), 0, null, 64 * 1024, "worker", Scope.SESSION, "slirp4netns", DEFAULT_DOCKER_UID);
    }

    public SandboxConfig withBackend(Backend value) {
        return new SandboxConfig(value, unsafeHost, bwrapPath, dockerHost, image, limits, network, idleTimeout,
                poolSize, poolDirectory, outputCapBytes, workerId, scope, slirp4netnsPath, dockerUid);
    }

    public SandboxConfig withUnsafeHost(boolean value) {
        return new SandboxConfig(backend, value, bwrapPath, dockerHost, image, limits, network, idleTimeout,
                poolSize, poolDirectory, outputCapBytes, workerId, scope, slirp4netnsPath, dockerUid);
    }

    public SandboxConfig withBwrapPath(String value) {
        return new SandboxConfig(backend, unsafeHost, value, dockerHost, image, limits, network, idleTimeout,
                poolSize, poolDirectory, outputCapBytes, workerId, scope, slirp4netnsPath, dockerUid);
    }

    public SandboxConfig withImage(String value) {
        return new SandboxConfig(backend, unsafeHost, bwrapPath, dockerHost, value, limits, network, idleTimeout,
                poolSize, poolDirectory, outputCapBytes, workerId, scope, slirp4netnsPath, dockerUid);
    }

    public SandboxConfig withLimits(Limits value) {
        return new SandboxConfig(backend, unsafeHost, bwrapPath, dockerHost, image, value, network, idleTimeout,
                poolSize, poolDirectory, outputCapBytes, workerId, scope, slirp4netnsPath, dockerUid);
    }

    public SandboxConfig withNetwork(boolean value) {
        return new SandboxConfig(backend, unsafeHost, bwrapPath, dockerHost, image, limits, value, idleTimeout,
                poolSize, poolDirectory, outputCapBytes, workerId, scope, slirp4netnsPath, dockerUid);
    }

    public SandboxConfig withIdleTimeout(Duration value) {
        return new SandboxConfig(backend, unsafeHost, bwrapPath, dockerHost, image, limits, network, value,
                poolSize, poolDirectory, outputCapBytes, workerId, scope, slirp4netnsPath, dockerUid);
    }

    public SandboxConfig withPool(int size, Path directory) {
        return new SandboxConfig(backend, unsafeHost, bwrapPath, dockerHost, image, limits, network, idleTimeout,
                size, directory, outputCapBytes, workerId, scope, slirp4netnsPath, dockerUid);
    }

    public SandboxConfig withOutputCapBytes(int value) {
        return new SandboxConfig(backend, unsafeHost, bwrapPath, dockerHost, image, limits, network, idleTimeout,
                poolSize, poolDirectory, value, workerId, scope, slirp4netnsPath, dockerUid);
    }

    public SandboxConfig withScope(Scope value) {
        return new SandboxConfig(backend, unsafeHost, bwrapPath, dockerHost, image, limits, network, idleTimeout,
                poolSize, poolDirectory, outputCapBytes, workerId, value, slirp4netnsPath, dockerUid);
    }

    public SandboxConfig withWorkerId(String value) {
        return new SandboxConfig(backend, unsafeHost, bwrapPath, dockerHost, image, limits, network, idleTimeout,
                poolSize, poolDirectory, outputCapBytes, value, scope, slirp4netnsPath, dockerUid);
    }

    public SandboxConfig withSlirp4netnsPath(String value) {
        return new SandboxConfig(backend, unsafeHost, bwrapPath, dockerHost, image, limits, network, idleTimeout,
                poolSize, poolDirectory, outputCapBytes, workerId, scope, value, dockerUid);
    }

    public SandboxConfig withDockerUid(int value) {
        return new SandboxConfig(backend, unsafeHost, bwrapPath, dockerHost, image, limits, network, idleTimeout,
                poolSize, poolDirectory, outputCapBytes, workerId, scope, slirp4netnsPath, value);
    }
}
