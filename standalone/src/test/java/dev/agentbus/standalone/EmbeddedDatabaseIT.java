package dev.agentbus.standalone;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/** The standalone PostgreSQL: a real server whose data survives a restart, and which recovers from a killed JVM. */
class EmbeddedDatabaseIT {
    @TempDir
    Path dir;

    @Test
    void rows_written_before_a_restart_are_there_after_it() throws Exception {
        Path data = dir.resolve("postgres");
        try (EmbeddedDatabase db = EmbeddedDatabase.start(data, 0)) {
            assertThat(db.jdbcUrl()).startsWith("jdbc:postgresql://localhost:").endsWith("/agentbus");
            try (Connection c = DriverManager.getConnection(db.jdbcUrl(), db.user(), "");
                 Statement s = c.createStatement()) {
                s.execute("CREATE TABLE kept (v text)");
                s.execute("INSERT INTO kept VALUES ('survives')");
            }
        }
        assertThat(data.resolve("PG_VERSION")).exists();

        try (EmbeddedDatabase again = EmbeddedDatabase.start(data, 0);
             Connection c = DriverManager.getConnection(again.jdbcUrl(), again.user(), "");
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
             Connection c = DriverManager.getConnection(next.jdbcUrl(), next.user(), "")) {
            assertThat(c.isValid(5)).isTrue();
        }
    }
}
