package dev.agentbus.standalone;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The standalone PostgreSQL: a real server whose data survives a restart, which recovers from a killed JVM, and
 * which nobody uses without a password (issue 28: any account on the host connected as superuser with none, read the
 * TOTP secrets and ran programs with {@code COPY … TO PROGRAM}).
 */
class EmbeddedDatabaseIT {
    @TempDir
    Path dir;

    @Test
    void rows_written_before_a_restart_are_there_after_it() throws Exception {
        Path data = dir.resolve("postgres");
        try (EmbeddedDatabase db = EmbeddedDatabase.start(data, 0)) {
            assertThat(db.jdbcUrl()).startsWith("jdbc:postgresql://localhost:").endsWith("/agentbus");
            try (Connection c = DriverManager.getConnection(db.jdbcUrl(), db.user(), db.password());
                 Statement s = c.createStatement()) {
                s.execute("CREATE TABLE kept (v text)");
                s.execute("INSERT INTO kept VALUES ('survives')");
            }
        }
        assertThat(data.resolve("PG_VERSION")).exists();

        try (EmbeddedDatabase again = EmbeddedDatabase.start(data, 0);
             Connection c = DriverManager.getConnection(again.jdbcUrl(), again.user(), again.password());
             Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT v FROM kept")) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getString(1)).isEqualTo("survives");
        }
    }

    @Test
    void a_server_left_running_by_a_killed_jvm_is_stopped_before_the_next_start() throws Exception {
        Path data = dir.resolve("postgres");
        EmbeddedDatabase first = EmbeddedDatabase.start(data, 0);
        long pid = Long.parseLong(Files.readAllLines(data.resolve("postmaster.pid")).getFirst().strip());
        Optional<ProcessHandle> server = ProcessHandle.of(pid);
        assertThat(server).isPresent();

        // What the next start does first, as if this JVM had died without closing the server.
        EmbeddedDatabase.stopLeftoverServer(data);

        assertThat(server.get().isAlive()).isFalse();
        first.close(); // zonky's own stop now finds nothing to stop; it only releases its lock
        try (EmbeddedDatabase next = EmbeddedDatabase.start(data, 0);
             Connection c = DriverManager.getConnection(next.jdbcUrl(), next.user(), next.password())) {
            assertThat(c.isValid(5)).isTrue();
        }
    }

    @Test
    void a_connection_without_the_password_is_refused_for_every_account_and_role() throws Exception {
        try (EmbeddedDatabase db = EmbeddedDatabase.start(dir.resolve("postgres"), 0)) {
            for (String role : List.of("postgres", db.user())) {
                assertThatThrownBy(() -> DriverManager.getConnection(db.jdbcUrl(), role, "").close())
                        .as(role).isInstanceOf(SQLException.class);
                assertThatThrownBy(() -> DriverManager.getConnection(db.jdbcUrl(), role, "wrong").close())
                        .as(role).isInstanceOf(SQLException.class);
            }
            // The attack as it was made: another account of the host, with psql, over TCP and the local socket.
            for (String host : List.of("localhost", "127.0.0.1", socketDirectory(db))) {
                Psql attempt = psqlAsAnotherAccount(host, db.port(), "postgres", "SELECT 'CONNECTED'");
                assertThat(attempt.output()).as(host).doesNotContain("CONNECTED");
                assertThat(attempt.exitCode()).as(host + ": " + attempt.output()).isNotZero();
                // Over TCP the server asks for the password; on the socket the OS may refuse first (a socket made
                // owner-only where a umask applies): either way nobody gets in without the password.
                assertThat(attempt.output()).as(host).containsAnyOf("password",
                        host.startsWith("/") ? "Permission denied" : "password");
            }
            assertThat(Files.readString(dir.resolve("postgres/pg_hba.conf")).lines()
                    .filter(l -> !l.startsWith("#") && !l.isBlank()))
                    .isNotEmpty().allMatch(l -> l.endsWith("scram-sha-256"));
            Path passwords = dir.resolve(EmbeddedDatabase.PASSWORDS_FILE);
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(passwords))).isEqualTo("rw-------");
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve("postgres"))))
                    .isEqualTo("rwx------");
        }
    }

    @Test
    void the_gateways_role_cannot_run_programs_read_server_files_or_make_roles() throws Exception {
        Path proof = dir.resolve("copy-to-program-ran");
        try (EmbeddedDatabase db = EmbeddedDatabase.start(dir.resolve("postgres"), 0);
             Connection c = DriverManager.getConnection(db.jdbcUrl(), db.user(), db.password());
             Statement s = c.createStatement()) {
            try (ResultSet rs = s.executeQuery("SELECT rolsuper, rolcreaterole, rolcreatedb FROM pg_roles "
                    + "WHERE rolname = current_user")) {
                assertThat(rs.next()).isTrue();
                assertThat(List.of(rs.getBoolean(1), rs.getBoolean(2), rs.getBoolean(3)))
                        .containsOnly(false);
            }
            assertThatThrownBy(() -> s.execute("COPY (SELECT 1) TO PROGRAM 'touch " + proof + "'"))
                    .isInstanceOf(SQLException.class).hasMessageContaining("permission denied");
            assertThatThrownBy(() -> s.execute("CREATE ROLE intruder LOGIN SUPERUSER PASSWORD 'x'"))
                    .isInstanceOf(SQLException.class).hasMessageContaining("permission denied");
            assertThatThrownBy(() -> s.execute("SELECT pg_read_file('pg_hba.conf')"))
                    .isInstanceOf(SQLException.class).hasMessageContaining("permission denied");
            // What it may do: its own schema, as the gateway's migrations need.
            s.execute("CREATE SCHEMA gateway_like");
            s.execute("CREATE TABLE gateway_like.t (v int)");
        }
        assertThat(proof).doesNotExist();
    }

    @Test
    void a_data_directory_of_an_earlier_version_is_locked_and_handed_to_the_gateways_role() throws Exception {
        Path data = dir.resolve("postgres");
        // What the code before issue 28 made: zonky's defaults (trust for everyone), objects owned by postgres.
        try (EmbeddedPostgres old = EmbeddedPostgres.builder().setDataDirectory(data).setCleanDataDirectory(false)
                .setPgBinaryResolver(EmbeddedDatabase::binaries).start()) {
            try (Connection c = old.getPostgresDatabase().getConnection(); Statement s = c.createStatement()) {
                s.execute("CREATE DATABASE agentbus");
            }
            try (Connection c = old.getDatabase("postgres", "agentbus").getConnection();
                 Statement s = c.createStatement()) {
                s.execute("CREATE SCHEMA gateway");
                s.execute("CREATE TABLE gateway.accounts (id bigserial PRIMARY KEY, name text)");
                s.execute("INSERT INTO gateway.accounts (name) VALUES ('ada')");
            }
        }
        assertThat(DatabaseLockdown.trustsConnections(data)).isTrue();

        try (EmbeddedDatabase db = EmbeddedDatabase.start(data, 0)) {
            assertThatThrownBy(() -> DriverManager.getConnection(db.jdbcUrl(), "postgres", "").close())
                    .isInstanceOf(SQLException.class);
            try (Connection c = DriverManager.getConnection(db.jdbcUrl(), db.user(), db.password());
                 Statement s = c.createStatement()) {
                s.execute("INSERT INTO gateway.accounts (name) VALUES ('grace')");
                s.execute("ALTER TABLE gateway.accounts ADD COLUMN totp text");
                try (ResultSet rs = s.executeQuery("SELECT count(*) FROM gateway.accounts")) {
                    rs.next();
                    assertThat(rs.getInt(1)).isEqualTo(2);
                }
            }
        }
        assertThat(DatabaseLockdown.trustsConnections(data)).isFalse();
    }

    @Test
    void a_locked_data_directory_without_its_passwords_says_how_to_get_back_in() throws Exception {
        Path data = dir.resolve("postgres");
        EmbeddedDatabase.start(data, 0).close();
        Files.delete(dir.resolve(EmbeddedDatabase.PASSWORDS_FILE));

        assertThatThrownBy(() -> EmbeddedDatabase.start(data, 0))
                .hasMessageContaining("postgres-passwords").hasMessageContaining("pg_hba.conf");
    }

    record Psql(int exitCode, String output) {
    }

    /** The unix socket's directory: PostgreSQL's lock file names it on its fifth line. */
    private static String socketDirectory(EmbeddedDatabase db) throws Exception {
        List<String> pid = Files.readAllLines(db.dataDir().resolve("postmaster.pid"));
        return pid.get(4).strip();
    }

    /**
     * psql with no password and no password file, as another account of the host when this test runs as root (as
     * CI does): nobody, through setpriv.
     */
    private static Psql psqlAsAnotherAccount(String host, int port, String role, String sql) throws Exception {
        List<String> argv = new ArrayList<>();
        if (ProcessHandle.current().info().user().orElse("").equals("root")) {
            argv.addAll(List.of("setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"));
        }
        argv.addAll(List.of("psql", "-w", "-X", "-h", host, "-p", Integer.toString(port), "-U", role, "-d",
                "postgres", "-tAc", sql));
        ProcessBuilder builder = new ProcessBuilder(argv).redirectErrorStream(true).directory(Path.of("/").toFile());
        builder.environment().keySet().removeIf(k -> k.startsWith("PG"));
        builder.environment().put("HOME", "/nonexistent");
        Process p = builder.start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        return new Psql(p.exitValue(), output);
    }
}
