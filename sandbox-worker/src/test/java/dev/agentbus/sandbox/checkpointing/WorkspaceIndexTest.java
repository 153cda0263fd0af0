package dev.agentbus.sandbox.checkpointing;

import org.eclipse.jgit.lib.ObjectInserter;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.storage.file.FileRepositoryBuilder;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the index reads, and when it trusts a stat instead. A file changed in the same tick of the file system's
 * clock as the stat that recorded it could change again with every field of its stat the same; kernels since 6.13
 * mostly prevent that on their own (a stat'ed file gets a finer time on its next change), older ones and other file
 * systems do not. So the rule is tested directly, with the stamp it is given.
 */
class WorkspaceIndexTest {
    @TempDir
    Path dir;
    Path workspace;
    Repository repository;
    ObjectInserter objects;
    WorkspaceIndex index;

    @BeforeEach
    void setUp() throws IOException {
        workspace = Files.createDirectories(dir.resolve("ws")).toRealPath();
        repository = new FileRepositoryBuilder().setGitDir(dir.resolve("repo.git").toFile()).setBare().build();
        repository.create(true);
        objects = repository.newObjectInserter();
        index = new WorkspaceIndex(workspace);
    }

    @AfterEach
    void tearDown() {
        objects.close();
        repository.close();
    }

    @Test
    void a_file_that_changed_at_or_after_the_stamp_is_read_again_until_a_later_stamp_vouches_for_it()
            throws Exception {
        Path file = Files.writeString(workspace.resolve("a.txt"), "a\n");
        long changed = FileStat.of(file).changedNanos();

        index.scan(objects, changed); // the stat was taken in the tick the file changed in: racy
        index.scan(objects, changed);
        long readWhileRacy = index.reads();
        long later = laterStamp(changed);
        index.scan(objects, later); // read once more, now with a stamp after its change
        index.scan(objects, later);
        index.scan(objects, later);

        assertThat(readWhileRacy).isEqualTo(2);
        assertThat(index.reads()).isEqualTo(3);
    }

    @Test
    void a_stat_walk_reads_only_the_files_whose_stat_changed_and_a_report_reads_only_its_paths() throws Exception {
        for (int i = 0; i < 20; i++) {
            Files.createDirectories(workspace.resolve("d" + i % 4));
            Files.writeString(workspace.resolve("d" + i % 4).resolve("f" + i), "file " + i);
        }
        index.scan(objects, 0); // a stamp before every change: all racy, all read again by the next scan
        index.scan(objects, laterStamp(FileSystemClock.now(workspace, dir.resolve("stamp"))));
        long afterTwoScans = index.reads();

        Files.writeString(workspace.resolve("d1/f1"), "changed");
        long stamp = laterStamp(FileSystemClock.now(workspace, dir.resolve("stamp")));
        index.scan(objects, stamp);
        long afterOneChange = index.reads();
        Files.writeString(workspace.resolve("d2/f2"), "changed too");
        index.update(List.of(workspace.resolve("d2/f2")), objects, laterStamp(stamp));

        assertThat(afterTwoScans).isEqualTo(40);
        assertThat(afterOneChange).isEqualTo(41);
        assertThat(index.reads()).isEqualTo(42);
        assertThat(index.files()).isEqualTo(20);
    }

    /** The file system's time once it is past {@code stamp}: waits on that condition, for a tick at most. */
    private long laterStamp(long stamp) throws IOException {
        long now;
        do {
            now = FileSystemClock.now(workspace, dir.resolve("stamp"));
        } while (now <= stamp);
        return now;
    }
}
