package dev.agentbus.sandbox.sandboxing;

import dev.agentbus.events.session.ShellState;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import dev.agentbus.telemetry.metrics.AgentbusMetrics;

import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The worker's {@link SandboxProvider}: the registry of running sandboxes, one per session (by
 * {@link SandboxKey}), and the reaper of idle ones. The backend is chosen once, at start ({@link BackendChoice});
 * new sessions may get a sandbox from the warm pool ({@link SandboxPool}).
 *
 * <p>A running sandbox's own state wins over {@code spec.restore()}: the restore state is used only to build one.
 * (The calls of one model turn are requested together, so the second's request still carries the state from
 * before the first.)
 *
 * <p>Tenants: a sandbox belongs to one (user, session) pair and mounts only that session's workspace; a sandbox is
 * handed out again only for the same pair and the same workspace.
 */
public final class Sandboxes implements SandboxProvider {
    private static final Logger LOG = LoggerFactory.getLogger(Sandboxes.class);

    private final SandboxConfig config;
    private final Backend backend;
    private final Map<SandboxKey, Entry> live = new ConcurrentHashMap<>();
    private final Map<SandboxKey, Object> keyLocks = new ConcurrentHashMap<>();
    private final SandboxPool pool;
    private final ScheduledExecutorService reaper;
    private volatile boolean closed;

    private record Entry(ShellSandbox sandbox, Path workspace) {
    }

    /** Reads the configuration, finds the backend, removes this worker's leftover containers, starts the pool. */
    public Sandboxes(SandboxConfig config) {
        this(config, null);
    }

    /** As {@link #Sandboxes(SandboxConfig)}, with where the Kubernetes backend makes pods (null: not configured). */
    public Sandboxes(SandboxConfig config, PodSandboxConfig pods) {
        this.config = config;
        BackendChoice choice = BackendChoice.choose(config, pods);
        this.backend = choice.backend();
        int removed = switch (backend) {
            case DockerBackend docker -> docker.removeLeftovers();
            case KubernetesBackend kubernetes -> kubernetes.removeLeftovers();
            default -> 0;
        };
        if (removed > 0) {
            LOG.info("removed {} sandboxes left by a previous run of worker {}", removed, config.workerId());
        }
        if (config.scope() == SandboxConfig.Scope.USER && !(backend instanceof DockerBackend)) {
            LOG.warn("agentbus.sandbox.scope=user needs the Docker backend; {} sandboxes stay one per session",
                    backend.name());
        }
        this.reaper = Executors.newSingleThreadScheduledExecutor(Thread.ofPlatform().daemon()
                .name("agentbus-sandbox-reaper").factory());
        long every = Math.max(1, Math.min(config.idleTimeout().toMillis() / 2, 30_000));
        reaper.scheduleWithFixedDelay(this::reapIdle, every, every, TimeUnit.MILLISECONDS);
        this.pool = config.poolSize() > 0 && backend.canPool()
                ? SandboxPool.start(config.poolSize(), config.poolDirectory(), config.workerId(), this::createPooled)
                : SandboxPool.off();
        LOG.info("sandbox backend: {}{}{}", backend.name(),
                backend instanceof Unavailable none ? " (" + none.reason() + ")" : "",
                choice.dockerPassedOver() == null ? "" : " (not docker: " + choice.dockerPassedOver() + ")");
    }

    @Override
    public String backend() {
        return backend.name();
    }

    /** Why no sandbox can be made, or empty when one can. */
    public Optional<String> unavailableReason() {
        return backend instanceof Unavailable none ? Optional.of(none.reason()) : Optional.empty();
    }

    /** Whether a sandbox's number of processes is capped (Docker always; bubblewrap only with control groups). */
    boolean limitsProcesses() {
        return backend.limitsProcesses();
    }

    /** How many sandboxes are running for sessions now (not counting the pool). */
    public int running() {
        return (int) live.values().stream().filter(e -> !e.sandbox().isClosed()).count();
    }

    /** How many pooled sandboxes are ready. */
    public int pooled() {
        return pool.ready();
    }

    @Override
    public Sandbox acquire(SandboxSpec spec) throws SandboxException {
        SandboxKey key = keyWithWorkspace(spec);
        synchronized (lockOf(key)) {
            Entry entry = live.get(key);
            if (entry != null && !entry.sandbox().isClosed() && entry.workspace().equals(spec.workspace())) {
                entry.sandbox().touch();
                return entry.sandbox();
            }
            if (entry != null) {
                entry.sandbox().close();
                live.remove(key);
            }
            ShellSandbox sandbox = pool.take(spec).orElse(null);
            AgentbusMetrics.sandboxPool(sandbox != null);
            if (sandbox == null) {
                sandbox = create(key, spec.workspace(), spec.restore());
            }
            live.put(key, new Entry(sandbox, spec.workspace()));
            return sandbox;
        }
    }

    @Override
    public Sandbox restart(SandboxSpec spec) throws SandboxException {
        SandboxKey key = keyWithWorkspace(spec);
        synchronized (lockOf(key)) {
            Entry entry = live.remove(key);
            if (entry != null) {
                entry.sandbox().close();
            }
            ShellSandbox sandbox = create(key, spec.workspace(), spec.restore());
            live.put(key, new Entry(sandbox, spec.workspace()));
            return sandbox;
        }
    }

    @Override
    public void release(SandboxSpec spec) {
        SandboxKey key;
        try {
            // Only who and which session name a sandbox; the workspace is not needed to let one go.
            key = SandboxKey.of(spec);
        } catch (SandboxException namesNone) {
            return;
        }
        synchronized (lockOf(key)) {
            Entry entry = live.remove(key);
            if (entry != null) {
                entry.sandbox().close();
            }
        }
    }

    @Override
    public void close() {
        closed = true;
        pool.close();
        reaper.shutdown();
        try {
            if (!reaper.awaitTermination(60, TimeUnit.SECONDS)) {
                reaper.shutdownNow();
            }
        } catch (InterruptedException e) {
            reaper.shutdownNow();
            Thread.currentThread().interrupt();
        }
        live.values().forEach(entry -> entry.sandbox().close());
        live.clear();
        backend.close();
    }

    private static SandboxKey keyWithWorkspace(SandboxSpec spec) throws SandboxException {
        SandboxKey key = SandboxKey.of(spec);
        if (spec.workspace() == null) {
            throw new SandboxException("a sandbox needs a user, a session and a workspace");
        }
        return key;
    }

    private Object lockOf(SandboxKey key) {
        return keyLocks.computeIfAbsent(key, k -> new Object());
    }

    /** A new sandbox with its shell started in {@code restore} (null: the initial state). */
    private ShellSandbox create(SandboxKey key, Path workspace, ShellState restore) throws SandboxException {
        if (backend instanceof Unavailable none) {
            throw new SandboxException(none.reason());
        }
        if (closed) {
            throw new SandboxException("the worker is shutting down");
        }
        ShellSandbox sandbox = null;
        try {
            SandboxHost host = StartAttempts.DEFAULT.run(backend.name(), "container",
                    () -> backend.newHost(key, workspace), () -> {
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

    /** A pooled sandbox starts in the initial state. */
    private ShellSandbox createPooled(SandboxKey key, Path workspace) throws SandboxException {
        return create(key, workspace, null);
    }

    private void reapIdle() {
        try {
            Duration idle = config.idleTimeout();
            live.forEach((key, entry) -> {
                if (entry.sandbox().isClosed() || entry.sandbox().closeIfIdle(idle)) {
                    live.remove(key, entry);
                    LOG.debug("reaped idle sandbox of {}", key);
                }
            });
        } catch (RuntimeException e) {
            LOG.warn("reaping idle sandboxes failed", e);
        }
    }
}
