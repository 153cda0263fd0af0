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

    /** What every file tool does with a path: reach the entry's parent through handles. */
    private void reach(String path) throws Exception {
        try (WorkspacePaths.Target target = paths.target(path, false)) {
            assertThat(target.parent().stat(target.name())).as(path).isNotNull();
        }
    }

    @Test
    void a_symlink_to_etc_made_inside_the_workspace_is_refused() throws Exception {
        Files.createSymbolicLink(ws.resolve("etc"), Path.of("/etc"));

        assertThatThrownBy(() -> paths.directory("etc"))
                .isInstanceOf(SymbolicLinkException.class)
                .hasMessageStartingWith("path goes through a symbolic link: etc");
        assertThatThrownBy(() -> reach("etc/passwd")).isInstanceOf(SymbolicLinkException.class);
        assertThatThrownBy(() -> paths.target("etc/not-yet-there", true)).isInstanceOf(SymbolicLinkException.class);
        assertThat(Path.of("/etc/not-yet-there")).doesNotExist();
    }

    @Test
    void a_symlinked_directory_is_refused_at_any_depth() throws Exception {
        Files.createDirectories(ws.resolve("sub"));
        Files.createSymbolicLink(ws.resolve("sub/out"), outside);
        Files.createSymbolicLink(ws.resolve("rel"), Path.of("../outside"));

        assertThatThrownBy(() -> reach("sub/out/secret.txt"))
                .isInstanceOf(SymbolicLinkException.class)
                .hasMessageStartingWith("path goes through a symbolic link: sub/out");
        assertThatThrownBy(() -> paths.target("sub/out/new.txt", true)).isInstanceOf(SymbolicLinkException.class);
        assertThatThrownBy(() -> reach("rel/secret.txt")).isInstanceOf(SymbolicLinkException.class);
        assertThat(outside.resolve("new.txt")).doesNotExist();
    }

    @Test
    void links_that_stay_inside_are_refused_too_because_a_link_checked_now_may_point_out_later() throws Exception {
        Files.createDirectories(ws.resolve("real"));
        Files.writeString(ws.resolve("real/f.txt"), "f");
        Files.createSymbolicLink(ws.resolve("alias"), Path.of("real"));

        assertThatThrownBy(() -> reach("alias/f.txt")).isInstanceOf(SymbolicLinkException.class)
                .hasMessageStartingWith("path goes through a symbolic link: alias");
        reach("real/f.txt");
    }

    @Test
    void the_workspace_itself_is_never_followed_if_it_is_a_link_but_its_parent_may_be_one() throws Exception {
        Path link = Files.createSymbolicLink(tmp.resolve("ws-link"), ws);
        assertThatThrownBy(() -> WorkspacePaths.open(link)).isInstanceOf(IOException.class)
                .hasMessageContaining("the workspace directory is a symbolic link");

        Path parentLink = Files.createSymbolicLink(tmp.resolve("parent-link"), tmp);
        WorkspacePaths viaParent = WorkspacePaths.open(parentLink.resolve("ws"));
        assertThat(viaParent.root()).isEqualTo(ws);
        assertThatThrownBy(() -> viaParent.resolve("../outside/secret.txt")).isInstanceOf(PathRejectedException.class);
    }

    @Test
    void display_shows_workspace_relative_paths_and_scrub_hides_the_host_location() throws Exception {
        assertThat(paths.display(ws.resolve("a/b.txt"))).isEqualTo("a/b.txt");
        assertThat(paths.display(ws)).isEqualTo(".");
        assertThat(paths.scrub("failed: " + ws.resolve("a/b.txt"))).isEqualTo("failed: a/b.txt");
    }
}
