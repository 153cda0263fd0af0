package dev.agentbus.sandbox.workspace;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The handle-based file operations every tool uses: atomic replacement, ownership, links never followed. */
class WorkspaceDirTest {
    @TempDir
    Path dir;

    @TempDir
    Path hostDir;

    /** What a tool does to write a file: reach its parent through handles (making it), then replace it there. */
    private void write(Path file, byte[] content) throws Exception {
        try (WorkspacePaths.Target target = WorkspacePaths.open(dir).target(dir.relativize(file).toString(), true)) {
            target.parent().writeAtomically(target.name(), content);
        }
    }

    private void mkdirs(Path made) throws Exception {
        try (WorkspacePaths.Target target = WorkspacePaths.open(dir).target(dir.relativize(made).toString(), true)) {
            target.parent().createDirectory(target.name());
        }
    }

    @Test
    void creates_parent_directories_and_the_file() throws Exception {
        Path target = dir.resolve("a/b/c.txt");

        write(target, "hello".getBytes(StandardCharsets.UTF_8));

        assertThat(target).hasContent("hello");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(target))).isEqualTo("rw-r--r--");
    }

    @Test
    void new_files_and_directories_belong_to_whoever_owns_the_directory_they_are_made_in() throws Exception {
        // The workspace belongs to the sandbox's user; a root worker hands that user what it writes there.
        boolean root = (Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid") == 0;
        int owner = root ? 1000 : (Integer) Files.getAttribute(dir, "unix:uid");
        Files.setAttribute(dir, "unix:uid", owner);
        Files.setAttribute(dir, "unix:gid", owner);

        write(dir.resolve("src/main/App.java"), "class App {}".getBytes(StandardCharsets.UTF_8));
        mkdirs(dir.resolve("docs/img"));

        for (String made : List.of("src", "src/main", "src/main/App.java", "docs", "docs/img")) {
            assertThat(Files.getAttribute(dir.resolve(made), "unix:uid")).as(made).isEqualTo(owner);
            assertThat(Files.getAttribute(dir.resolve(made), "unix:gid")).as(made).isEqualTo(owner);
        }
    }

    @Test
    void replaces_an_existing_file_and_leaves_no_temporary_file() throws Exception {
        Path target = dir.resolve("f.txt");
        Files.writeString(target, "old content that is longer");

        write(target, "new".getBytes(StandardCharsets.UTF_8));

        assertThat(target).hasContent("new");
        assertThat(namesIn(dir)).containsExactly("f.txt");
    }

    @Test
    void keeps_the_permissions_of_the_file_it_replaces() throws Exception {
        Path script = dir.resolve("run.sh");
        Files.writeString(script, "#!/bin/sh\n");
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-x---"));

        write(script, "#!/bin/sh\necho hi\n".getBytes(StandardCharsets.UTF_8));

        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(script))).isEqualTo("rwxr-x---");
    }

    @Test
    void a_failed_replace_leaves_the_target_alone_and_cleans_up() throws Exception {
        Path target = dir.resolve("busy");
        Files.createDirectories(target.resolve("child"));

        assertThatThrownBy(() -> write(target, "x".getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(IOException.class);

        assertThat(target.resolve("child")).isDirectory();
        assertThat(namesIn(dir)).containsExactly("busy");
    }

    @Test
    void a_link_at_the_name_or_on_the_way_is_refused_and_nothing_is_written_through_it() throws Exception {
        Path outside = hostDir;
        Files.writeString(outside.resolve("secret"), "host");
        Files.createSymbolicLink(dir.resolve("f.txt"), outside.resolve("secret"));

        assertThatThrownBy(() -> write(dir.resolve("f.txt"), "x".getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(SymbolicLinkException.class)
                .hasMessageStartingWith("path goes through a symbolic link: f.txt");
        assertThatThrownBy(() -> write(dir.resolve("f.txt/inner"), "x".getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(SymbolicLinkException.class);

        assertThat(outside.resolve("secret")).hasContent("host");
        assertThat(outside.resolve("inner")).doesNotExist();
    }

    @Test
    void links_are_made_read_and_deleted_as_links_through_the_directory_handle() throws Exception {
        Files.writeString(dir.resolve("target.txt"), "t");
        try (WorkspaceDir root = WorkspacePaths.open(dir).openRoot()) {
            root.createSymbolicLink("link", "target.txt");
            assertThat(root.readSymbolicLink("link")).isEqualTo("target.txt");
            assertThatThrownBy(() -> root.createDirectory("link")).isInstanceOf(FileAlreadyExistsException.class)
                    .hasMessage("link");
            root.createSymbolicLink("link", "/etc/passwd", true);
            assertThat(Files.readSymbolicLink(dir.resolve("link"))).isEqualTo(Path.of("/etc/passwd"));
            root.deleteTree("link");
        }
        assertThat(dir.resolve("link")).doesNotExist();
        assertThat(dir.resolve("target.txt")).hasContent("t");
        assertThat(Path.of("/etc/passwd")).exists();
    }

    private static List<String> namesIn(Path dir) throws IOException {
        try (Stream<Path> list = Files.list(dir)) {
            return list.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }
}
