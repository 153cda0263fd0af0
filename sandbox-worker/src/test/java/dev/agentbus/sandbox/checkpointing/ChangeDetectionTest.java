package dev.agentbus.sandbox.checkpointing;

import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.revwalk.RevWalk;
import org.eclipse.jgit.storage.file.FileRepositoryBuilder;
import org.eclipse.jgit.treewalk.TreeWalk;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Clock;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * How a checkpoint finds what changed without reading every file: by stat, and by the paths a tool reports. A change
 * it misses would be lost to a rewind, so every way a file can change while its stat looks the same is tried here.
 */
class ChangeDetectionTest {
    @TempDir
    Path root;
    Checkpoints checkpoints;
    Path workspace;

    @BeforeEach
    void setUp() throws IOException {
        checkpoints = new Checkpoints(root, Clock.systemUTC());
        workspace = Files.createDirectories(root.resolve("alice").resolve("s1")).toRealPath();
    }

    private Optional<String> afterShell(String callId) throws CheckpointException {
        return checkpoints.record("alice", "s1", workspace, "shell", callId);
    }

    private Optional<String> afterFileTool(String callId, Path... changed) throws CheckpointException {
        return checkpoints.record("alice", "s1", workspace, "write", callId, List.of(changed));
    }

    /** The content of a file in a checkpoint, or null when the checkpoint has no such file. */
    private String inCheckpoint(String checkpoint, String path) throws IOException {
        Path gitDir = checkpoints.root().resolve("alice").resolve("s1.git");
        try (Repository repo = new FileRepositoryBuilder().setGitDir(gitDir.toFile()).setMustExist(true).build();
             RevWalk walk = new RevWalk(repo);
             TreeWalk file = TreeWalk.forPath(repo, path, walk.parseCommit(ObjectId.fromString(checkpoint)).getTree())) {
            return file == null ? null : new String(repo.open(file.getObjectId(0)).getBytes(), StandardCharsets.UTF_8);
        }
    }

    @Test
    void a_file_rewritten_in_place_with_the_same_size_right_after_a_checkpoint_is_seen_every_time() throws Exception {
        // Written in place (same inode), the same size, as fast as possible: many of these writes land in the same
        // tick of the file system's clock as the checkpoint before them, so size, times and inode all look the same.
        Path file = workspace.resolve("counter.txt");
        Files.writeString(file, "value 000\n");
        afterShell("c0").orElseThrow();
        for (int i = 1; i <= 200; i++) {
            String content = "value %03d\n".formatted(i);
            Files.writeString(file, content);

            Optional<String> checkpoint = i % 2 == 0 ? afterShell("c" + i) : afterFileTool("c" + i, file);

            assertThat(checkpoint).as("write %d", i).isPresent();
            assertThat(inCheckpoint(checkpoint.get(), "counter.txt")).isEqualTo(content);
        }
    }

    @Test
    void a_modification_time_set_back_to_what_it_was_does_not_hide_a_change() throws Exception {
        Path file = workspace.resolve("a.txt");
        Files.writeString(file, "before\n");
        FileTime time = Files.getLastModifiedTime(file);
        afterShell("c1").orElseThrow();

        Files.writeString(file, "after!\n"); // same size
        Files.setLastModifiedTime(file, time); // as "touch -d" would; the change time moves all the same

        Optional<String> checkpoint = afterShell("c2");
        assertThat(checkpoint).isPresent();
        assertThat(inCheckpoint(checkpoint.get(), "a.txt")).isEqualTo("after!\n");
    }

    @Test
    void a_call_that_changed_nothing_gets_no_checkpoint_whichever_way_it_is_looked_at() throws Exception {
        Path file = Files.writeString(workspace.resolve("a.txt"), "one\n");
        afterShell("c1").orElseThrow();

        assertThat(afterShell("c2")).isEmpty();
        assertThat(afterFileTool("c3")).isEmpty();
        Files.writeString(file, "one\n"); // the same bytes written again: new times, same content
        assertThat(afterFileTool("c4", file)).isEmpty();
        assertThat(afterShell("c5")).isEmpty();
    }

    @Test
    void a_file_tool_has_only_the_paths_it_reports_looked_at_and_a_shell_call_then_sees_the_rest() throws Exception {
        Path a = Files.writeString(workspace.resolve("a.txt"), "a1\n");
        Path b = Files.writeString(workspace.resolve("b.txt"), "b1\n");
        afterShell("c1").orElseThrow();

        Files.writeString(b, "b2 by a program left running\n");
        Files.writeString(a, "a2\n");
        String byTool = afterFileTool("c2", a).orElseThrow();
        String byShell = afterShell("c3").orElseThrow();

        assertThat(inCheckpoint(byTool, "a.txt")).isEqualTo("a2\n");
        assertThat(inCheckpoint(byTool, "b.txt")).isEqualTo("b1\n");
        assertThat(inCheckpoint(byShell, "b.txt")).isEqualTo("b2 by a program left running\n");
    }

    @Test
    void a_new_file_in_new_directories_a_deleted_tree_and_a_made_directory_are_recorded_from_the_reports()
            throws Exception {
        Path old = workspace.resolve("old/deep/x.txt");
        Files.createDirectories(old.getParent());
        Files.writeString(old, "x\n");
        Files.writeString(workspace.resolve("old/y.txt"), "y\n");
        afterShell("c1").orElseThrow();

        Path fresh = workspace.resolve("new/dir/z.txt");
        Files.createDirectories(fresh.getParent());
        Files.writeString(fresh, "z\n");
        String added = afterFileTool("c2", fresh).orElseThrow();
        deleteTree(workspace.resolve("old"));
        String deleted = afterFileTool("c3", workspace.resolve("old")).orElseThrow();
        Path made = Files.createDirectories(workspace.resolve("empty/too"));
        Optional<String> mkdir = afterFileTool("c4", made);

        assertThat(inCheckpoint(added, "new/dir/z.txt")).isEqualTo("z\n");
        assertThat(inCheckpoint(added, "old/deep/x.txt")).isEqualTo("x\n");
        assertThat(inCheckpoint(deleted, "old/deep/x.txt")).isNull();
        assertThat(inCheckpoint(deleted, "old/y.txt")).isNull();
        assertThat(inCheckpoint(deleted, "new/dir/z.txt")).isEqualTo("z\n");
        assertThat(mkdir).as("git records no empty directory").isEmpty();
    }

    @Test
    void a_reported_path_that_goes_through_a_link_makes_the_whole_workspace_looked_at() throws Exception {
        Files.createDirectories(workspace.resolve("src"));
        Files.writeString(workspace.resolve("src/a.txt"), "a1\n");
        Files.writeString(workspace.resolve("other.txt"), "o1\n");
        Files.createSymbolicLink(workspace.resolve("link"), Path.of("src"));
        afterShell("c1").orElseThrow();

        Files.writeString(workspace.resolve("other.txt"), "o2\n");
        Files.writeString(workspace.resolve("src/a.txt"), "a2\n");
        String checkpoint = afterFileTool("c2", workspace.resolve("link/a.txt")).orElseThrow();

        assertThat(inCheckpoint(checkpoint, "src/a.txt")).isEqualTo("a2\n");
        assertThat(inCheckpoint(checkpoint, "other.txt")).as("looked at everything").isEqualTo("o2\n");
    }

    @Test
    void a_reported_path_outside_the_workspace_makes_the_whole_workspace_looked_at() throws Exception {
        Files.writeString(workspace.resolve("a.txt"), "a1\n");
        afterShell("c1").orElseThrow();

        Files.writeString(workspace.resolve("a.txt"), "a2\n");
        Collection<Path> elsewhere = List.of(root.resolve("bob/s2/x.txt"));
        String checkpoint = checkpoints.record("alice", "s1", workspace, "write", "c2", elsewhere).orElseThrow();

        assertThat(inCheckpoint(checkpoint, "a.txt")).isEqualTo("a2\n");
    }

    @Test
    void checkpoints_taken_by_another_worker_meanwhile_make_the_next_one_look_at_everything() throws Exception {
        Path a = Files.writeString(workspace.resolve("a.txt"), "a1\n");
        Path b = Files.writeString(workspace.resolve("b.txt"), "b1\n");
        afterShell("c1").orElseThrow();
        // the session's partition moves to another replica, which runs a command and checkpoints it
        Checkpoints otherReplica = new Checkpoints(root, Clock.systemUTC());
        Files.writeString(b, "b2 by the other replica\n");
        otherReplica.record("alice", "s1", workspace, "shell", "c2").orElseThrow();

        // and back here, a file tool reports only its own path
        Files.writeString(a, "a2\n");
        String checkpoint = afterFileTool("c3", a).orElseThrow();

        assertThat(inCheckpoint(checkpoint, "a.txt")).isEqualTo("a2\n");
        assertThat(inCheckpoint(checkpoint, "b.txt")).as("not reverted to what this worker last saw")
                .isEqualTo("b2 by the other replica\n");
    }

    @Test
    void after_a_restart_the_first_checkpoint_reads_the_workspace_again_and_finds_it_unchanged() throws Exception {
        Files.createDirectories(workspace.resolve("d"));
        Files.writeString(workspace.resolve("d/a.txt"), "a\n");
        Files.createSymbolicLink(workspace.resolve("l"), Path.of("d/a.txt"));
        String first = afterShell("c1").orElseThrow();

        Checkpoints restarted = new Checkpoints(root, Clock.systemUTC());

        assertThat(restarted.record("alice", "s1", workspace, "write", "c2", List.of())).isEmpty();
        assertThat(restarted.latest("alice", "s1", workspace)).contains(first);
        Files.writeString(workspace.resolve("d/a.txt"), "b\n");
        assertThat(restarted.record("alice", "s1", workspace, "shell", "c3")).isPresent();
    }

    @Test
    void a_file_replaced_by_a_link_and_a_directory_replaced_by_a_file_are_seen() throws Exception {
        Files.writeString(workspace.resolve("target.txt"), "t\n");
        Files.writeString(workspace.resolve("f"), "file\n");
        Files.createDirectories(workspace.resolve("d"));
        Files.writeString(workspace.resolve("d/inner.txt"), "i\n");
        afterShell("c1").orElseThrow();

        Files.delete(workspace.resolve("f"));
        Files.createSymbolicLink(workspace.resolve("f"), Path.of("target.txt"));
        deleteTree(workspace.resolve("d"));
        Files.writeString(workspace.resolve("d"), "now a file\n");
        String checkpoint = afterShell("c2").orElseThrow();

        assertThat(inCheckpoint(checkpoint, "f")).isEqualTo("target.txt");
        assertThat(inCheckpoint(checkpoint, "d")).isEqualTo("now a file\n");
        assertThat(inCheckpoint(checkpoint, "d/inner.txt")).isNull();
    }

    private static void deleteTree(Path dir) throws IOException {
        try (var all = Files.walk(dir)) {
            for (Path p : all.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
