package dev.agentbus.standalone;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The standalone stack's own parts, after a real start (issue 28): the data directory is the owner's alone (Kafka's
 * segments, every conversation, were 0644 in 0755 directories), and the gateway uses the database as a role that is
 * not a superuser, behind a password.
 */
class StandaloneLockdownIT {
    @TempDir
    Path dir;

    @Test
    void after_a_start_the_data_directory_is_private_and_the_gateway_is_no_database_superuser() throws Exception {
        Path data = dir.resolve("agentbus");
        // A data directory as an earlier version left it: open to everyone.
        Files.createDirectories(data.resolve("kafka"));
        Files.setPosixFilePermissions(data, PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.setPosixFilePermissions(data.resolve("kafka"), PosixFilePermissions.fromString("rwxr-xr-x"));

        try (Standalone stack = new Standalone(data, 0)) {
            stack.start(Map.of("llm.url", "http://127.0.0.1:9/v1", "agentbus.gateway.port", "-1",
                    "agentbus.gateway.token", "lockdown-token", "agentbus.kafka.partitions", "1"));

            assertThat(mode(data)).isEqualTo("rwx------");
            try (Stream<Path> top = Files.list(data)) {
                List<Path> entries = top.toList();
                assertThat(entries).extracting(p -> p.getFileName().toString())
                        .contains("kafka", "postgres", "workspaces", "postgres-passwords");
                for (Path entry : entries) {
                    assertThat(mode(entry)).as(entry.toString())
                            .isEqualTo(Files.isDirectory(entry, LinkOption.NOFOLLOW_LINKS) ? "rwx------" : "rw-------");
                }
            }
            Path segment;
            try (Stream<Path> files = Files.walk(data.resolve("kafka"))) {
                segment = files.filter(p -> p.getFileName().toString().endsWith(".log")).findFirst().orElseThrow();
            }
            if (ProcessHandle.current().info().user().orElse("").equals("root")) {
                // Another account of the host tries to read a conversation.
                Process cat = new ProcessBuilder("setpriv", "--reuid=65534", "--regid=65534", "--clear-groups",
                        "cat", segment.toString()).redirectErrorStream(true).start();
                String said = new String(cat.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                assertThat(cat.waitFor(30, TimeUnit.SECONDS)).isTrue();
                assertThat(cat.exitValue()).as(said).isNotZero();
                assertThat(said).contains("Permission denied");
            }

            assertThatThrownBy(() -> DriverManager.getConnection(stack.databaseUrl(), "postgres", "").close())
                    .isInstanceOf(SQLException.class);
            assertThat(stack.databaseUser()).isEqualTo("agentbus_gateway");
            try (Connection c = DriverManager.getConnection(stack.databaseUrl(), stack.databaseUser(),
                    stack.databasePassword()); Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("SELECT rolsuper FROM pg_roles WHERE rolname = current_user")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getBoolean(1)).isFalse();
            }
        }
    }

    private static String mode(Path path) throws Exception {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(path, LinkOption.NOFOLLOW_LINKS));
    }
}
