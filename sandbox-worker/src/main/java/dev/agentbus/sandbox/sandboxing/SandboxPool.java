package dev.agentbus.sandbox.sandboxing;

import dev.agentbus.events.session.ShellState;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The warm pool ({@code agentbus.sandbox.pool-size}): sandboxes started in advance around empty directories, for
 * new sessions. A new session whose workspace is still empty takes one by renaming its directory onto the
 * workspace path (a rename replaces an empty directory atomically); the sandbox's bind mount follows the
 * directory, so the session sees its own workspace, and no other session ever saw the directory. Sessions that
 * restore a state, or whose workspace already has files, get a fresh sandbox instead. The pool refills in the
 * background.
 */
final class SandboxPool implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(SandboxPool.class);
    private static final SecureRandom RANDOM = new SecureRandom();

    /** Starts a sandbox around a directory (the provider's own way of making one). */
    @FunctionalInterface
    interface Starter {
        ShellSandbox start(SandboxKey key, Path workspace) throws SandboxException;
    }

    private record Pooled(ShellSandbox sandbox, Path directory) {
    }

    private final int size;
    /** This worker's own part of the pool directory: workers sharing the volume never touch each other's. */
    private final Path directory;
    private final Starter starter;
    private final LinkedBlockingQueue<Pooled> ready = new LinkedBlockingQueue<>();
    /** Null when the pool is off. */
    private final ExecutorService filler;
    private volatile boolean closed;

    /** A pool that is off: never fills, never hands out. */
    static SandboxPool off() {
        return new SandboxPool(0, null, null);
    }

    /**
     * Removes the empty directories a previous run of this worker had pooled (its containers are removed by the
     * backend) and starts filling.
     *
     * @param poolRoot where the workers' pools are, on the same file system as the workspaces
     */
    static SandboxPool start(int size, Path poolRoot, String workerId, Starter starter) {
        SandboxPool pool = new SandboxPool(size, poolRoot.resolve(workerId.replaceAll("[^A-Za-z0-9_.-]", "_")),
                starter);
        pool.removeLeftoverDirectories();
        pool.refillSoon();
        return pool;
    }

    private SandboxPool(int size, Path directory, Starter starter) {
        this.size = size;
        this.directory = directory;
        this.starter = starter;
        this.filler = size > 0 ? Executors.newSingleThreadExecutor(Thread.ofPlatform().daemon()
                .name("agentbus-sandbox-pool").factory()) : null;
    }

    /** How many pooled sandboxes are ready. */
    int ready() {
        return ready.size();
    }

    /** A pooled sandbox now serving {@code spec}'s workspace, if the session may have one and one is ready. */
    Optional<ShellSandbox> take(SandboxSpec spec) {
        if (filler == null || (spec.restore() != null && !spec.restore().equals(ShellState.INITIAL))
                || !isEmptyDirectory(spec.workspace())) {
            return Optional.empty();
        }
        Pooled pooled;
        while ((pooled = ready.poll()) != null) {
            if (pooled.sandbox().isClosed()) {
                continue;
            }
            try {
                // rename(2): atomically replaces the session's empty directory with the pooled one.
                Files.move(pooled.directory(), spec.workspace(), StandardCopyOption.ATOMIC_MOVE);
                pooled.sandbox().moved(spec.workspace());
                refillSoon();
                return Optional.of(pooled.sandbox());
            } catch (IOException | RuntimeException e) {
                LOG.info("could not take a pooled sandbox for {}: {}", spec.workspace(), e.toString());
                discard(pooled);
                break;
            }
        }
        refillSoon();
        return Optional.empty();
    }

    /** Stops filling (waiting for a sandbox being started, so none is left behind) and frees the ready ones. */
    @Override
    public void close() {
        closed = true;
        if (filler != null) {
            // Not shutdownNow: an interrupted Docker call can leave a container the pool never learns about. The
            // filler checks `closed` between sandboxes, so waiting is short.
            filler.shutdown();
            try {
                if (!filler.awaitTermination(60, TimeUnit.SECONDS)) {
                    filler.shutdownNow();
                }
            } catch (InterruptedException e) {
                filler.shutdownNow();
                Thread.currentThread().interrupt();
            }
        }
        Pooled pooled;
        while ((pooled = ready.poll()) != null) {
            discard(pooled);
        }
    }

    private void refillSoon() {
        if (filler != null && !closed) {
            try {
                filler.execute(this::refill);
            } catch (java.util.concurrent.RejectedExecutionException e) {
                // Closing.
            }
        }
    }

    private void refill() {
        try {
            while (!closed && ready.size() < size) {
                byte[] token = new byte[8];
                RANDOM.nextBytes(token);
                Path dir = directory.resolve("p-" + HexFormat.of().formatHex(token));
                Files.createDirectories(dir);
                try {
                    ready.add(new Pooled(starter.start(SandboxKey.pooled(dir.getFileName().toString()), dir), dir));
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

    private void removeLeftoverDirectories() {
        if (!Files.isDirectory(directory)) {
            return;
        }
        try (DirectoryStream<Path> left = Files.newDirectoryStream(directory, "p-*")) {
            for (Path dir : left) {
                if (isEmptyDirectory(dir)) {
                    Files.deleteIfExists(dir);
                }
            }
        } catch (IOException e) {
            LOG.debug("could not clean the pool directory {}: {}", directory, e.toString());
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

    private static boolean isEmptyDirectory(Path dir) {
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
            return !entries.iterator().hasNext();
        } catch (IOException e) {
            return false;
        }
    }
}
