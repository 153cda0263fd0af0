package dev.agentbus.sandbox.workspace;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class BackupsTest {
    @TempDir
    Path userDir;

    /** Saves a workspace entry the way a tool does: reached through its parent's handle. */
    private static String save(Backups backups, Path ws, String relative) throws Exception {
        try (WorkspacePaths.Target target = WorkspacePaths.open(ws).target(relative, false)) {
            return backups.save(target);
        }
    }

    private Path workspace() throws IOException {
        return Files.createDirectories(userDir.resolve("session-1")).toRealPath();
    }

    @Test
    void backups_live_next_to_the_workspace_never_inside_it() throws IOException {
        Path ws = workspace();

        assertThat(Backups.locationFor(ws)).isEqualTo(ws.getParent().resolve(".backups").resolve("session-1"));
        assertThat(Backups.locationFor(ws).startsWith(ws)).isFalse();
    }

    @Test
    void a_file_is_saved_at_its_workspace_path_inside_a_timestamped_backup() throws Exception {
        Path ws = workspace();
        Files.createDirectories(ws.resolve("src"));
        Files.writeString(ws.resolve("src/Main.java"), "class Main {}\n");

        String id = save(new Backups(ws, 10, 1 << 20, Clock.systemUTC()), ws, "src/Main.java");

        assertThat(id).matches("\\d{8}T\\d{6}\\.\\d{3}Z-[0-9a-f]{4}/src/Main\\.java");
        assertThat(Backups.locationFor(ws).resolve(id)).hasContent("class Main {}");
    }

    @Test
    void a_directory_is_saved_whole_with_links_kept_as_links() throws Exception {
        Path ws = workspace();
        Files.createDirectories(ws.resolve("d/e"));
        Files.writeString(ws.resolve("d/e/f.txt"), "f");
        Files.createSymbolicLink(ws.resolve("d/link"), Path.of("/etc/passwd"));

        String id = save(new Backups(ws, 10, 1 << 20, Clock.systemUTC()), ws, "d");

        Path saved = Backups.locationFor(ws).resolve(id);
        assertThat(saved.resolve("e/f.txt")).hasContent("f");
        assertThat(Files.isSymbolicLink(saved.resolve("link"))).isTrue();
    }

    @Test
    void only_the_newest_backups_are_kept() throws Exception {
        Path ws = workspace();
        Files.writeString(ws.resolve("a.txt"), "a");
        Backups backups = new Backups(ws, 3, 1 << 20, Clock.systemUTC());

        for (int i = 0; i < 5; i++) {
            save(backups, ws, "a.txt");
            Thread.sleep(2); // distinct time stamps, so "newest" is well defined
        }

        assertThat(backups.list()).hasSize(3);
    }

    @Test
    void a_backup_larger_than_allowed_is_refused_and_nothing_is_saved() throws Exception {
        Path ws = workspace();
        Files.write(ws.resolve("big.bin"), new byte[2048]);
        Backups backups = new Backups(ws, 3, 1024, Clock.systemUTC());

        assertThatThrownBy(() -> save(backups, ws, "big.bin")).isInstanceOf(Backups.TooLargeException.class)
                .hasMessage("big.bin holds 2048 bytes, more than the 1024 bytes a backup may hold");
        assertThat(backups.list()).isEmpty();
    }
}
