package dev.agentbus.sandbox.workspace;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class WorkspacePathsTest {
    @TempDir
    Path tmp;

    private Path ws;
    private Path outside;
    private WorkspacePaths paths;

    @BeforeEach
    void setUp() throws IOException {
        ws = Files.createDirectory(tmp.resolve("ws")).toRealPath();
        outside = Files.createDirectory(tmp.resolve("outside")).toRealPath();
        Files.writeString(outside.resolve("secret.txt"), "secret");
        paths = WorkspacePaths.open(ws);
    }

    @Test
    void relative_paths_resolve_inside_the_workspace_whether_or_not_they_exist() throws Exception {
        Files.createDirectories(ws.resolve("src"));
        Files.writeString(ws.resolve("src/Main.java"), "class Main {}");

        assertThat(paths.resolve("src/Main.java")).isEqualTo(ws.resolve("src/Main.java"));
        assertThat(paths.resolve("new/dir/file.txt")).isEqualTo(ws.resolve("new/dir/file.txt"));
        assertThat(paths.resolve("src/./x/../Main.java")).isEqualTo(ws.resolve("src/Main.java"));
    }

    @Test
    void empty_and_dot_name_the_root() throws Exception {
        assertThat(paths.resolve("")).isEqualTo(ws);
        assertThat(paths.resolve(".")).isEqualTo(ws);
        assertThat(paths.resolve("a/..")).isEqualTo(ws);
    }

    @Test
    void absolute_paths_are_refused() {
        assertThatThrownBy(() -> paths.resolve("/etc/passwd"))
                .isInstanceOf(PathRejectedException.class)
                .hasMessageStartingWith("absolute paths are not allowed: /etc/passwd");
        assertThatThrownBy(() -> paths.resolve(ws.resolve("inside.txt").toString()))
                .isInstanceOf(PathRejectedException.class);
    }

    @Test
    void dot_dot_that_climbs_out_is_refused() {
        assertThatThrownBy(() -> paths.resolve("../x"))
                .isInstanceOf(PathRejectedException.class)
                .hasMessage("path escapes the workspace: ../x");
        assertThatThrownBy(() -> paths.resolve("a/b/../../../outside/secret.txt"))
                .hasMessage("path escapes the workspace: a/b/../../../outside/secret.txt");
        assertThatThrownBy(() -> paths.resolve("..")).isInstanceOf(PathRejectedException.class);
    }

    @Test
    void nul_bytes_are_refused() {
        assertThatThrownBy(() -> paths.resolve("a.txt\0.png"))
                .isInstanceOf(PathRejectedException.class)
                .hasMessage("path must not contain NUL bytes");
    }

    @Test
    void a_symlink_to_etc_made_inside_the_workspace_is_refused() throws Exception {
        Files.createSymbolicLink(ws.resolve("etc"), Path.of("/etc"));

        assertThatThrownBy(() -> paths.resolve("etc"))
                .isInstanceOf(PathRejectedException.class)
                .hasMessage("path escapes the workspace through a symbolic link: etc (in etc)");
        assertThatThrownBy(() -> paths.resolve("etc/passwd")).isInstanceOf(PathRejectedException.class);
        assertThatThrownBy(() -> paths.resolve("etc/not-yet-there")).isInstanceOf(PathRejectedException.class);
    }

    @Test
    void a_symlinked_directory_leading_outside_is_refused_at_any_depth() throws Exception {
        Files.createDirectories(ws.resolve("sub"));
        Files.createSymbolicLink(ws.resolve("sub/out"), outside);
        Files.createSymbolicLink(ws.resolve("rel"), Path.of("../outside"));

        assertThatThrownBy(() -> paths.resolve("sub/out/secret.txt"))
                .isInstanceOf(PathRejectedException.class)
                .hasMessageContaining("symbolic link: sub/out");
        assertThatThrownBy(() -> paths.resolve("sub/out/new.txt")).isInstanceOf(PathRejectedException.class);
        assertThatThrownBy(() -> paths.resolve("rel/secret.txt")).isInstanceOf(PathRejectedException.class);
    }

    @Test
    void a_symlinked_file_leading_outside_is_refused() throws Exception {
        Files.createSymbolicLink(ws.resolve("secret.txt"), outside.resolve("secret.txt"));

        assertThatThrownBy(() -> paths.resolve("secret.txt")).isInstanceOf(PathRejectedException.class);
    }

    @Test
    void a_chain_of_links_is_followed_to_its_end() throws Exception {
        Files.createSymbolicLink(ws.resolve("b"), Path.of("/etc"));
        Files.createSymbolicLink(ws.resolve("a"), Path.of("b"));

        assertThatThrownBy(() -> paths.resolve("a/passwd")).isInstanceOf(PathRejectedException.class);
    }

    @Test
    void a_dangling_link_is_refused_because_writing_through_it_would_create_its_target() throws Exception {
        Files.createSymbolicLink(ws.resolve("dangling"), outside.resolve("does-not-exist.txt"));
        Files.createSymbolicLink(ws.resolve("dangling-inside"), Path.of("nothing-here"));

        assertThatThrownBy(() -> paths.resolve("dangling"))
                .isInstanceOf(PathRejectedException.class)
                .hasMessageContaining("dangling symbolic link: dangling");
        assertThatThrownBy(() -> paths.resolve("dangling-inside")).isInstanceOf(PathRejectedException.class);
    }

    @Test
    void links_that_stay_inside_are_resolved_to_their_target() throws Exception {
        Files.createDirectories(ws.resolve("real"));
        Files.createSymbolicLink(ws.resolve("alias"), Path.of("real"));

        assertThat(paths.resolve("alias/f.txt")).isEqualTo(ws.resolve("real/f.txt"));
    }

    @Test
    void the_root_may_itself_be_reached_through_a_link() throws Exception {
        Path link = Files.createSymbolicLink(tmp.resolve("ws-link"), ws);
        WorkspacePaths viaLink = WorkspacePaths.open(link);

        assertThat(viaLink.root()).isEqualTo(ws);
        assertThat(viaLink.resolve("x.txt")).isEqualTo(ws.resolve("x.txt"));
        assertThatThrownBy(() -> viaLink.resolve("../outside/secret.txt")).isInstanceOf(PathRejectedException.class);
    }

    @Test
    void display_shows_workspace_relative_paths_and_scrub_hides_the_host_location() throws Exception {
        assertThat(paths.display(ws.resolve("a/b.txt"))).isEqualTo("a/b.txt");
        assertThat(paths.display(ws)).isEqualTo(".");
        assertThat(paths.scrub("failed: " + ws.resolve("a/b.txt"))).isEqualTo("failed: a/b.txt");
    }
}
