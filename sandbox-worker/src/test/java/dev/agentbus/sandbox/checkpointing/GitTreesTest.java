package dev.agentbus.sandbox.checkpointing;

import org.eclipse.jgit.lib.FileMode;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectInserter;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.lib.TreeFormatter;
import org.eclipse.jgit.storage.file.FileRepositoryBuilder;
import org.eclipse.jgit.treewalk.TreeWalk;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Trees in git's order: a directory's name sorts as if it ended in {@code /}, so {@code a-b} and {@code a.txt}
 * come before the directory {@code a}. Another order gives another tree id for the same files (and a tree git
 * calls corrupt); {@link GitFormatTest} checks the result with the {@code git} program itself.
 */
class GitTreesTest {
    @TempDir
    Path dir;
    Repository repository;
    ObjectInserter objects;
    ObjectId blob;

    @BeforeEach
    void setUp() throws IOException {
        repository = new FileRepositoryBuilder().setGitDir(dir.resolve("repo.git").toFile()).setBare().build();
        repository.create(true);
        objects = repository.newObjectInserter();
        blob = objects.insert(org.eclipse.jgit.lib.Constants.OBJ_BLOB, "x\n".getBytes(StandardCharsets.UTF_8));
    }

    @AfterEach
    void tearDown() {
        objects.close();
        repository.close();
    }

    @Test
    void a_directory_sorts_as_if_its_name_ended_in_a_slash() throws Exception {
        // given a directory "a" and files whose names start with "a" and a byte below or above "/"
        ObjectId subtree = GitTrees.insert(new ArrayList<>(List.of(entry("inner", FileMode.REGULAR_FILE, blob))),
                objects);
        List<GitTrees.TreeEntry> entries = new ArrayList<>(List.of(
                entry("b", FileMode.REGULAR_FILE, blob),
                entry("a", FileMode.TREE, subtree),
                entry("a0", FileMode.EXECUTABLE_FILE, blob),
                entry("a.txt", FileMode.REGULAR_FILE, blob),
                entry("a-b", FileMode.SYMLINK, blob)));

        // when their tree is written
        ObjectId tree = GitTrees.insert(entries, objects);
        objects.flush();

        // then the entries are in git's order, and the id is the one of the tree written in that order
        assertThat(namesIn(tree)).containsExactly("a-b", "a.txt", "a", "a0", "b");
        TreeFormatter expected = new TreeFormatter();
        expected.append("a-b", FileMode.SYMLINK, blob);
        expected.append("a.txt", FileMode.REGULAR_FILE, blob);
        expected.append("a", FileMode.TREE, subtree);
        expected.append("a0", FileMode.EXECUTABLE_FILE, blob);
        expected.append("b", FileMode.REGULAR_FILE, blob);
        assertThat(tree).isEqualTo(expected.computeId(objects));
    }

    @Test
    void a_file_sorts_before_a_longer_name_it_starts() {
        GitTrees.TreeEntry file = entry("a", FileMode.REGULAR_FILE, blob);
        GitTrees.TreeEntry longer = entry("a.txt", FileMode.REGULAR_FILE, blob);

        assertThat(GitTrees.TreeEntry.compare(file, longer)).isNegative();
        assertThat(GitTrees.TreeEntry.compare(longer, file)).isPositive();
    }

    @Test
    void names_compare_by_their_unsigned_bytes() {
        // "é" is 0xC3 0xA9 in UTF-8: above every ASCII byte, though negative as a Java byte
        GitTrees.TreeEntry accented = entry("é", FileMode.REGULAR_FILE, blob);
        GitTrees.TreeEntry ascii = entry("z", FileMode.REGULAR_FILE, blob);

        assertThat(GitTrees.TreeEntry.compare(ascii, accented)).isNegative();
    }

    @Test
    void no_entries_make_no_tree() throws Exception {
        assertThat(GitTrees.insert(new ArrayList<>(), objects)).isNull();
    }

    private static GitTrees.TreeEntry entry(String name, FileMode mode, ObjectId id) {
        return new GitTrees.TreeEntry(name.getBytes(StandardCharsets.UTF_8), mode, id);
    }

    private List<String> namesIn(ObjectId tree) throws IOException {
        List<String> names = new ArrayList<>();
        try (TreeWalk walk = new TreeWalk(repository)) {
            walk.addTree(tree);
            while (walk.next()) {
                names.add(walk.getNameString());
            }
        }
        return names;
    }
}
