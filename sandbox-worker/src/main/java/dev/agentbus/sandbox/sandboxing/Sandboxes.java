package dev.agentbus.sandbox.sandboxing;

import dev.agentbus.events.session.ShellState;
import dev.agentbus.sandbox.shell.Bubblewrap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The worker's {@link SandboxProvider}: picks the backend once, keeps one running sandbox per session, reaps the
 * idle ones, and optionally keeps a few sandboxes started in advance for new sessions.
 *
 * <p>Backend choice ({@code agentbus.sandbox.backend}): {@code docker} when an engine answers and has the image,
 * else {@code bubblewrap} when bwrap is installed, else none, and every command is refused with a message saying
 * what to install ({@code auto}); {@code docker} or {@code bubblewrap} insist on that backend. Unsafe host mode
 * overrides all of it.
 *
 * <p>A running sandbox's own state wins over {@code spec.restore()}: the restore state is used only to build one.
 * (The calls of one model turn are requested together, so the second's request still carries the state from
 * before the first.)
 *
 * <p>Tenants: a sandbox belongs to one (user, session) pair and mounts only that session's workspace; a sandbox is
 * handed out again only for the same pair and the same workspace.
 *
 * <p>The pool: a pooled sandbox is started around an empty directory in the pool directory. A new session whose
 * workspace is still empty takes one by renaming that directory onto its workspace path (a rename replaces an
 * empty directory atomically); the sandbox's bind mount follows the directory, so the session sees its own
 * workspace, and no other session ever saw the directory. Sessions that restore a state, or whose workspace
 * already has files, get a fresh sandbox.
 */
public final class Sandboxes implements SandboxProvider {
    private static final Logger LOG = LoggerFactory.getLogger(Sandboxes.class);
    private static final SecureRandom RANDOM = new SecureRandom();
    /** Keys of pooled sandboxes start so (no user id is empty). */
    private static final String POOL_KEY = "\u0000pool\u0000";

    private final SandboxConfig config;
    private final String backend;
    /** Why no sandbox can be made; null when a backend is available. */
    private final String unavailable;
    private final DockerEngine docker;
    private final Path bwrap;
    private final Optional<Cgroups> cgroups;
    private final Map<String, Entry> live = new ConcurrentHashMap<>();
    /** The users' containers when sandboxes are per user. */
    private final SharedContainers shared = new SharedContainers();
    private final Map<String, Object> keyLocks = new ConcurrentHashMap<>();
    private final LinkedBlockingQueue<Pooled> pool = new LinkedBlockingQueue<>();
    /** This worker's own part of the pool directory: workers sharing the volume never touch each other's. */
    private final Path poolDirectory;
    private final ScheduledExecutorService background;
    /** Whether this worker keeps a pool (not in unsafe host mode, not with per-user containers). */
    private final boolean pooling;
    private volatile boolean closed;

    private record Entry(ShellSandbox sandbox, Path workspace) {
    }

    private record Pooled(ShellSandbox sandbox, Path directory) {
    }

    /** Reads the configuration, finds the backend, removes this worker's leftover containers, starts the pool. */
    public Sandboxes(SandboxConfig config) {
        this(config, Path.of("/sys/fs/cgroup"));
    }

    Sandboxes(SandboxConfig config, Path cgroupMount) {
        this.config = config;
        DockerEngine engine = null;
        String dockerProblem = null;
        if (!config.unsafeHost() && config.backend() != SandboxConfig.Backend.BUBBLEWRAP) {
            engine = DockerEngine.connect(config.dockerHost()).orElse(null);
            if (engine == null) {
                dockerProblem = "no Docker engine answers";
            } else if (!engine.hasImage(config.image())) {
                dockerProblem = "the Docker engine has no image " + config.image()
                        + " (build it with deploy/sandbox-image/build.sh)";
            }
        }
        Optional<Path> bwrapPath = Bubblewrap.find(config.bwrapPath());
        String bwrapProblem = bwrapPath.isEmpty() ? "bubblewrap (" + config.bwrapPath() + ") is not installed" : null;
        BackendChoice choice = BackendChoice.choose(config.backend(), config.unsafeHost(), dockerProblem,
                bwrapProblem);
        if (engine != null && !choice.backend().equals("docker")) {
            engine.close();
            engine = null;
        }
        this.backend = choice.backend();
        this.unavailable = choice.unavailable();
        this.docker = engine;
        boolean bubblewrap = backend.equals("bubblewrap");
        this.bwrap = bubblewrap ? bwrapPath.get() : null;
        this.cgroups = bubblewrap ? Cgroups.detect(cgroupMount, config.workerId()) : Optional.empty();
        if (bubblewrap && cgroups.isEmpty()) {
            LOG.warn("bubblewrap sandboxes run without control groups: memory is capped per process by rlimit, but "
                    + "there is no process-count limit (a fork bomb runs until its time-out). Run the worker with a "
                    + "writable cgroup tree (root, or a delegated cgroup v2 subtree) to get the limits.");
        }
        if (docker != null) {
            int removed = docker.removeLeftovers(config.workerId());
            if (removed > 0) {
                LOG.info("removed {} sandbox containers left by a previous run of worker {}", removed,
                        config.workerId());
            }
        }
        this.background = Executors.newScheduledThreadPool(1, Thread.ofPlatform().daemon()
                .name("agentbus-sandboxes").factory());
        long every = Math.max(1, Math.min(config.idleTimeout().toMillis() / 2, 30_000));
        background.scheduleWithFixedDelay(this::reapIdle, every, every, TimeUnit.MILLISECONDS);
        this.poolDirectory = config.poolDirectory() == null ? null
                : config.poolDirectory().resolve(config.workerId().replaceAll("[^A-Za-z0-9_.-]", "_"));
        boolean perUser = config.scope() == SandboxConfig.Scope.USER;
        if (perUser && !backend.equals("docker")) {
            LOG.warn("agentbus.sandbox.scope=user needs the Docker backend; {} sandboxes stay one per session",
                    backend);
        }
        this.pooling = config.poolSize() > 0 && unavailable == null && !backend.equals("host") && !perUser;
        if (pooling) {
            removeLeftoverPoolDirectories();
            background.execute(this::refillPool);
        }
        // Say why Docker was passed over: an operator who expects containers should not have to guess.
        String passedOver = dockerProblem != null && unavailable == null && !backend.equals("docker")
                && config.backend() == SandboxConfig.Backend.AUTO ? " (not docker: " + dockerProblem + ")" : "";
        LOG.info("sandbox backend: {}{}{}", backend, unavailable == null ? "" : " (" + unavailable + ")", passedOver);
    }

    @Override
    public String backend() {
        return backend;
    }

    /** Why no sandbox can be made, or empty when one can. */
    public Optional<String> unavailableReason() {
        return Optional.ofNullable(unavailable);
    }

    /** Whether a sandbox's number of processes is capped (Docker always; bubblewrap only with control groups). */
    boolean limitsProcesses() {
        return backend.equals("docker") || cgroups.isPresent();
    }

    /** How many sandboxes are running for sessions now (not counting the pool). */
    public int running() {
        return (int) live.values().stream().filter(e -> !e.sandbox().isClosed()).count();
    }

    /** How many pooled sandboxes are ready. */
    public int pooled() {
        return pool.size();
    }

    @Override
    public Sandbox acquire(SandboxSpec spec) throws SandboxException {
        String key = key(spec);
        synchronized (keyLocks.computeIfAbsent(key, k -> new Object())) {
            Entry entry = live.get(key);
            if (entry != null && !entry.sandbox().isClosed() && entry.workspace().equals(spec.workspace())) {
                entry.sandbox().touch();
                return entry.sandbox();
            }
            if (entry != null) {
                entry.sandbox().close();
                live.remove(key);
            }
            ShellSandbox sandbox = fromPool(spec).orElse(null);
            if (sandbox == null) {
                sandbox = create(spec.workspace(), spec.restore(), key);
            }
            live.put(key, new Entry(sandbox, spec.workspace()));
            return sandbox;
        }
    }

    @Override
    public Sandbox restart(SandboxSpec spec) throws SandboxException {
        String key = key(spec);
        synchronized (keyLocks.computeIfAbsent(key, k -> new Object())) {
            Entry entry = live.remove(key);
            if (entry != null) {
                entry.sandbox().close();
            }
            ShellSandbox sandbox = create(spec.workspace(), spec.restore(), key);
            live.put(key, new Entry(sandbox, spec.workspace()));
            return sandbox;
        }
    }

    @Override
    public void release(SandboxSpec spec) {
        if (spec == null || spec.userId() == null || spec.sessionId() == null) {
            return; // names no sandbox
        }
        // Only who and which session name a sandbox; the workspace is not needed to let one go.
        String key = spec.userId() + "\u0000" + spec.sessionId();
        synchronized (keyLocks.computeIfAbsent(key, k -> new Object())) {
            Entry entry = live.remove(key);
            if (entry != null) {
                entry.sandbox().close();
            }
        }
    }

    @Override
    public void close() {
        closed = true;
        // Not shutdownNow: an interrupted Docker call can leave a container the pool never learns about. The pool
        // filler checks `closed` between sandboxes, so waiting is short.
        background.shutdown();
        try {
            if (!background.awaitTermination(60, TimeUnit.SECONDS)) {
                background.shutdownNow();
            }
        } catch (InterruptedException e) {
            background.shutdownNow();
            Thread.currentThread().interrupt();
        }
        live.values().forEach(entry -> entry.sandbox().close());
        live.clear();
        Pooled pooled;
        while ((pooled = pool.poll()) != null) {
            discard(pooled);
        }
        cgroups.ifPresent(Cgroups::removeParents);
        if (docker != null) {
            docker.close();
        }
    }

    private static String key(SandboxSpec spec) throws SandboxException {
        if (spec == null || spec.userId() == null || spec.sessionId() == null || spec.workspace() == null) {
            throw new SandboxException("a sandbox needs a user, a session and a workspace");
        }
        return spec.userId() + "\u0000" + spec.sessionId();
    }

    private ShellSandbox create(Path workspace, ShellState restore, String key) throws SandboxException {
        if (unavailable != null) {
            throw new SandboxException(unavailable);
        }
        if (closed) {
            throw new SandboxException("the worker is shutting down");
        }
        ShellSandbox sandbox = null;
        try {
            SandboxHost host = StartAttempts.DEFAULT.run(backend, "container", () -> newHost(workspace, key), () -> {
            });
            sandbox = new ShellSandbox(host, config.outputCapBytes(), restore, StartAttempts.DEFAULT);
            sandbox.start();
            return sandbox;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            if (sandbox != null) {
                sandbox.close();
            }
            throw new SandboxException("interrupted while starting the sandbox", e);
        } catch (SandboxException e) {
            if (sandbox != null) {
                sandbox.close();
            }
            throw e;
        }
    }

    private SandboxHost newHost(Path workspace, String key) throws SandboxException {
        String name = "agentbus-" + shortName(key) + "-" + HexFormat.of().formatHex(token(4));
        if (backend.equals("docker") && config.scope() == SandboxConfig.Scope.USER && !key.startsWith(POOL_KEY)) {
            String userId = key.substring(0, key.indexOf('\u0000'));
            String sessionId = key.substring(key.indexOf('\u0000') + 1);
            return shared.view(userId, sessionId, workspace, userDirectory -> DockerHost.create(docker,
                    userDirectory, config, "agentbus-" + shortName(userId) + "-" + HexFormat.of().formatHex(token(4)),
                    userId));
        }
        return switch (backend) {
            case "docker" -> DockerHost.create(docker, workspace, config, name, key.replace('\u0000', '/'));
            case "bubblewrap" -> new BubblewrapHost(bwrap, workspace, config, cgroups, name);
            case "host" -> new HostShellHost(workspace);
            default -> throw new SandboxException(unavailable);
        };
    }

    /** A readable, name-safe part of the key for container and group names (ids are checked by Workspaces). */
    private static String shortName(String key) {
        String safe = key.replace('\u0000', '-').replaceAll("[^A-Za-z0-9_.-]", "_");
        return safe.length() > 60 ? safe.substring(0, 60) : safe;
    }

    private static byte[] token(int bytes) {
        byte[] token = new byte[bytes];
        RANDOM.nextBytes(token);
        return token;
    }

    private Optional<ShellSandbox> fromPool(SandboxSpec spec) {
        if (!pooling || (spec.restore() != null && !spec.restore().equals(ShellState.INITIAL))
                || !isEmptyDirectory(spec.workspace())) {
            return Optional.empty();
        }
        Pooled pooled;
        while ((pooled = pool.poll()) != null) {
            if (pooled.sandbox().isClosed()) {
                continue;
            }
            try {
                // rename(2): atomically replaces the session's empty directory with the pooled one.
                Files.move(pooled.directory(), spec.workspace(), StandardCopyOption.ATOMIC_MOVE);
                pooled.sandbox().moved(spec.workspace());
                background.execute(this::refillPool);
                return Optional.of(pooled.sandbox());
            } catch (IOException | RuntimeException e) {
                LOG.info("could not take a pooled sandbox for {}: {}", spec.workspace(), e.toString());
                discard(pooled);
                break;
            }
        }
        if (!closed) {
            background.execute(this::refillPool);
        }
        return Optional.empty();
    }

    private static boolean isEmptyDirectory(Path dir) {
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
            return !entries.iterator().hasNext();
        } catch (IOException e) {
            return false;
        }
    }

    private void refillPool() {
        try {
            while (!closed && pool.size() < config.poolSize()) {
                Path dir = poolDirectory.resolve("p-" + HexFormat.of().formatHex(token(8)));
                Files.createDirectories(dir);
                try {
                    pool.add(new Pooled(create(dir, null, POOL_KEY + dir.getFileName()), dir));
                } catch (SandboxException e) {
                    Files.deleteIfExists(dir);
                    throw e;
                }
            }
        } catch (IOException | SandboxException | RuntimeException e) {
            if (!closed) {
                LOG.warn("could not fill the sandbox pool: {}", e.toString());
            }
        }
    }

    /** Empty workspaces a previous run of this worker had pooled (its containers were removed above). */
    private void removeLeftoverPoolDirectories() {
        if (!Files.isDirectory(poolDirectory)) {
            return;
        }
        try (DirectoryStream<Path> left = Files.newDirectoryStream(poolDirectory, "p-*")) {
            for (Path dir : left) {
                if (isEmptyDirectory(dir)) {
                    Files.deleteIfExists(dir);
                }
            }
        } catch (IOException e) {
            LOG.debug("could not clean the pool directory {}: {}", poolDirectory, e.toString());
        }
    }

    private static void discard(Pooled pooled) {
        pooled.sandbox().close();
        try {
            Files.deleteIfExists(pooled.directory());
        } catch (IOException e) {
            LOG.debug("could not remove pool directory {}: {}", pooled.directory(), e.toString());
        }
    }

    private void reapIdle() {
        try {
            live.forEach((key, entry) -> {
                if (entry.sandbox().isClosed() || entry.sandbox().closeIfIdle(config.idleTimeout())) {
                    live.remove(key, entry);
                    LOG.debug("reaped idle sandbox of {}", key.replace('\u0000', '/'));
                }
            });
        } catch (RuntimeException e) {
            LOG.warn("reaping idle sandboxes failed", e);
        }
    }
}
