package dev.agentbus.sandbox.checkpointing;

import dev.agentbus.sandbox.workspace.SymlinkRacer;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.revwalk.RevCommit;
import org.eclipse.jgit.revwalk.RevWalk;
import org.eclipse.jgit.storage.file.FileRepositoryBuilder;
import org.eclipse.jgit.treewalk.TreeWalk;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 28, failure 1, for checkpoints: taking one reads the whole workspace into the shadow repository, and a rewind
 * writes, creates and deletes files all over it. A program in the sandbox that swaps a directory or a file for a link
 * to a host directory meanwhile must get no host file into a checkpoint and no host file written or deleted.
 */
class SymlinkRaceCheckpointsTest {
    private static final int ITERATIONS = 200;

    @TempDir
    Path root;

    @Test
    void checkpoints_taken_during_the_race_hold_no_host_file() throws Exception {
        Checkpoints checkpoints = checkpoints();
        Path workspace = root.resolve("alice").resolve("s1");
        try (SymlinkRacer racer = new SymlinkRacer(workspace, root.resolve("outside"))) {
            for (int i = 0; i < ITERATIONS; i++) {
                Files.writeString(workspace.resolve("counter.txt"), "call " + i + "\n");
                checkpoints.record("alice", "s1", workspace, "shell", "c" + i);
            }
            racer.assertOutsideUntouched();
        }
        assertNoSecretInAnyCheckpoint(checkpoints.root().resolve("alice").resolve("s1.git"));
    }

    @Test
    void rewinds_during_the_race_write_and_delete_nothing_on_the_host() throws Exception {
        Checkpoints checkpoints = checkpoints();
        Path workspace = Files.createDirectories(root.resolve("alice").resolve("s1"));
        Path dir = Files.createDirectories(workspace.resolve("dir"));
        Files.writeString(dir.resolve("restored.txt"), "first\n");
        Files.createDirectories(dir.resolve("made"));
        Files.writeString(dir.resolve("made").resolve("deep.txt"), "first\n");
        String first = checkpoints.record("alice", "s1", workspace, "write", "c1").orElseThrow();
        Files.writeString(dir.resolve("restored.txt"), "second\n");
        Files.writeString(dir.resolve("victim.txt"), "second\n");
        Files.createSymbolicLink(dir.resolve("link"), Path.of("restored.txt"));
        String second = checkpoints.record("alice", "s1", workspace, "write", "c2").orElseThrow();
        try (SymlinkRacer racer = new SymlinkRacer(workspace, root.resolve("outside"))) {
            for (int i = 0; i < ITERATIONS; i++) {
                try {
                    checkpoints.rewind("alice", "s1", workspace, i % 2 == 0 ? first : second);
                } catch (CheckpointException refused) {
                    // a rewind that met a link where it must write is refused: that is the point
                }
            }
            racer.assertOutsideUntouched();
        }
        assertNoSecretInAnyCheckpoint(checkpoints.root().resolve("alice").resolve("s1.git"));
    }

    private Checkpoints checkpoints() {
        return new Checkpoints(root, Clock.fixed(Instant.parse("2026-01-02T03:04:05Z"), ZoneOffset.UTC));
    }

    /** Every file of every checkpoint on main: none holds the host file's secret. */
    private static void assertNoSecretInAnyCheckpoint(Path gitDir) throws IOException {
        try (Repository repo = new FileRepositoryBuilder().setGitDir(gitDir.toFile()).setBare().build();
             RevWalk walk = new RevWalk(repo)) {
            ObjectId tip = repo.resolve("refs/heads/main");
            assertThat(tip).as("checkpoints were taken").isNotNull();
            walk.markStart(walk.parseCommit(tip));
            int files = 0;
            for (RevCommit commit : walk) {
                try (TreeWalk tree = new TreeWalk(repo)) {
                    tree.addTree(commit.getTree());
                    tree.setRecursive(true);
                    while (tree.next()) {
                        files++;
                        String content = new String(repo.open(tree.getObjectId(0)).getBytes(),
                                StandardCharsets.ISO_8859_1);
                        SymlinkRacer.assertNoSecret("checkpoint " + commit.name() + " file " + tree.getPathString(),
                                content);
                    }
                }
            }
            assertThat(files).isPositive();
        }
    }
}
