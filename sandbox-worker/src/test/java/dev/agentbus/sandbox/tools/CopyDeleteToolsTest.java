package dev.agentbus.sandbox.tools;

import dev.agentbus.sandbox.workspace.Backups;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import static dev.agentbus.sandbox.tools.Json.args;
import static org.assertj.core.api.Assertions.assertThat;

/** copy and delete, and the backups every changing file tool takes. */
class CopyDeleteToolsTest {
    @TempDir
    Path tmp;
    Path ws;
    Path backups;

    private final ToolExecutor tools = new ToolExecutor(SandboxSettings.defaults().withMaxFileBytes(4096), NoSandboxes.INSTANCE);

    @BeforeEach
    void makeWorkspace() throws IOException {
        ws = Files.createDirectories(tmp.resolve("ws")).toRealPath();
        backups = Backups.locationFor(ws);
    }

    private ToolOutcome run(String tool, Object... keysAndValues) {
        return tools.execute(tool, args(keysAndValues), ws, null);
    }

    private long backupCount() throws IOException {
        if (!Files.isDirectory(backups)) {
            return 0;
        }
        try (Stream<Path> s = Files.list(backups)) {
            return s.count();
        }
    }

    @Test
    void copy_creates_the_destination_and_returns_its_diff() throws IOException {
        Files.writeString(ws.resolve("a.txt"), "one\ntwo\n");

        ToolOutcome outcome = run("copy", "from", "a.txt", "to", "sub/b.txt");

        assertThat(outcome.ok()).isTrue();
        assertThat(outcome.output()).isEqualTo("copied a.txt to sub/b.txt (8 bytes)");
        assertThat(ws.resolve("sub/b.txt")).hasContent("one\ntwo");
        assertThat(outcome.diff()).isEqualTo("--- /dev/null\n+++ b/sub/b.txt\n@@ -0,0 +1,2 @@\n+one\n+two\n");
        assertThat(backupCount()).isZero();
    }

    @Test
    void copy_over_an_existing_file_needs_overwrite_and_backs_it_up_first() throws IOException {
        Files.writeString(ws.resolve("a.txt"), "new\n");
        Files.writeString(ws.resolve("b.txt"), "old\n");

        ToolOutcome refused = run("copy", "from", "a.txt", "to", "b.txt");
        assertThat(refused.ok()).isFalse();
        assertThat(refused.error()).isEqualTo("b.txt already exists; set overwrite to true to replace it (a backup "
                + "is taken first)");
        assertThat(ws.resolve("b.txt")).hasContent("old");

        ToolOutcome outcome = run("copy", "from", "a.txt", "to", "b.txt", "overwrite", true);

        assertThat(outcome.ok()).isTrue();
        assertThat(outcome.diff()).contains("-old\n+new\n");
        assertThat(outcome.output()).contains("[backup: ");
        assertThat(ws.resolve("b.txt")).hasContent("new");
        String id = outcome.output().replaceAll(".*\\[backup: (.*)]$", "$1");
        assertThat(backups.resolve(id)).hasContent("old");
    }

    @Test
    void copy_refuses_directories_and_files_over_the_size_limit() throws IOException {
        Files.createDirectories(ws.resolve("dir"));
        Files.write(ws.resolve("big.bin"), new byte[5000]);

        assertThat(run("copy", "from", "dir", "to", "x").error()).startsWith("copy works on single files");
        assertThat(run("copy", "from", "big.bin", "to", "x").error())
                .isEqualTo("big.bin is 5000 bytes, more than the file limit of 4096 bytes; use the shell (cp) for "
                        + "large files");
        assertThat(ws.resolve("x")).doesNotExist();
    }

    @Test
    void delete_removes_a_file_after_a_backup_and_shows_what_went() throws IOException {
        Files.writeString(ws.resolve("gone.txt"), "bye\n");

        ToolOutcome outcome = run("delete", "path", "gone.txt");

        assertThat(outcome.ok()).isTrue();
        assertThat(outcome.output()).startsWith("deleted gone.txt [backup: ");
        assertThat(outcome.diff()).isEqualTo("--- a/gone.txt\n+++ /dev/null\n@@ -1 +0,0 @@\n-bye\n");
        assertThat(ws.resolve("gone.txt")).doesNotExist();
        assertThat(backupCount()).isEqualTo(1);
    }

    @Test
    void a_directory_that_is_not_empty_needs_recursive() throws IOException {
        Files.createDirectories(ws.resolve("d/e"));
        Files.writeString(ws.resolve("d/e/f.txt"), "f");

        assertThat(run("delete", "path", "d").error()).isEqualTo("d is a directory that is not empty; set recursive "
                + "to true to delete it and everything in it");
        assertThat(ws.resolve("d/e/f.txt")).exists();

        ToolOutcome outcome = run("delete", "path", "d", "recursive", true);

        assertThat(outcome.ok()).isTrue();
        assertThat(ws.resolve("d")).doesNotExist();
        String id = outcome.output().replaceAll(".*\\[backup: (.*)]$", "$1");
        assertThat(backups.resolve(id).resolve("e/f.txt")).hasContent("f");
    }

    @Test
    void deleting_a_link_removes_the_link_not_its_target_even_when_it_points_outside() throws IOException {
        Path outside = Files.writeString(tmp.resolve("outside.txt"), "keep me");
        Files.createSymbolicLink(ws.resolve("link"), outside);

        ToolOutcome outcome = run("delete", "path", "link");

        assertThat(outcome.ok()).isTrue();
        assertThat(ws.resolve("link")).doesNotExist();
        assertThat(outside).hasContent("keep me");
    }

    @Test
    void the_workspace_root_cannot_be_deleted() {
        assertThat(run("delete", "path", ".", "recursive", true).error())
                .startsWith("the workspace root cannot be deleted");
        assertThat(ws).exists();
    }

    @Test
    void a_tree_too_large_to_back_up_is_not_deleted() throws IOException {
        ToolExecutor small = new ToolExecutor(SandboxSettings.defaults().withMaxFileBytes(1024).withBackups(5, 1024), NoSandboxes.INSTANCE);
        Files.createDirectories(ws.resolve("big"));
        Files.write(ws.resolve("big/a.bin"), new byte[800]);
        Files.write(ws.resolve("big/b.bin"), new byte[800]);

        ToolOutcome outcome = small.execute("delete", args("path", "big", "recursive", true), ws, null);

        assertThat(outcome.ok()).isFalse();
        assertThat(outcome.error()).isEqualTo("no backup can be taken, so nothing was changed: big holds 1600 bytes, "
                + "more than the 1024 bytes a backup may hold");
        assertThat(ws.resolve("big/a.bin")).exists();
    }

    @Test
    void edit_and_write_back_up_the_old_file_before_changing_it() throws IOException {
        Files.writeString(ws.resolve("f.txt"), "v1\n");

        ToolOutcome edited = run("edit", "path", "f.txt", "old_text", "v1", "new_text", "v2");
        ToolOutcome written = run("write", "path", "f.txt", "content", "v3\n");

        String first = edited.output().replaceAll(".*\\[backup: (.*)]$", "$1");
        String second = written.output().replaceAll(".*\\[backup: (.*)]$", "$1");
        assertThat(backups.resolve(first)).hasContent("v1");
        assertThat(backups.resolve(second)).hasContent("v2");
        assertThat(ws.resolve("f.txt")).hasContent("v3");
    }
}
