package dev.agentbus.sandbox.checkpointing;

import dev.agentbus.sandbox.workspace.SymbolicLinkException;
import dev.agentbus.sandbox.workspace.WrongKindException;
import dev.agentbus.sandbox.workspace.WorkspaceDir;
import dev.agentbus.sandbox.workspace.WorkspacePaths;
import org.eclipse.jgit.lib.FileMode;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectInserter;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;

/**
 * What the worker knows of one session's workspace, kept in memory between calls: every recorded file with the
 * stat it had when it was last read and the blob of its content, and for each directory the id of its git tree.
 * It is git's index and cache-tree in one, and it is what makes a checkpoint cheap:
 * <ul>
 *   <li>a file whose stat is what it was is not read again ({@link FileStat} says why that is safe, and
 *       {@link FileStat#racy} when it is not);</li>
 *   <li>a directory with nothing changed below keeps its tree id, so after one changed file only the trees on its
 *       path are written again, and after no change nothing is;</li>
 *   <li>a tool that knows exactly which paths it changed has only those looked at ({@link #update}); anything
 *       else (a shell command) has the whole workspace looked at ({@link #scan}), which costs one {@code lstat}
 *       per entry and a read only of the files that changed.</li>
 * </ul>
 *
 * <p>What is recorded is what a checkpoint holds (see {@link ShadowRepository}): regular files with their executable
 * bit and symbolic links (as their target), never a directory named {@code .git} in any letter case, nothing in
 * it, no empty directory and no special file. Every directory and file is reached through the handle of the
 * directory above it ({@link WorkspaceDir}), so a directory or a file swapped for a link is never read through.
 *
 * <p>This class decides what to look at and what to read; {@link BlobReader} reads a file into a blob and
 * {@link GitTrees} writes a directory's tree.
 *
 * <p>Not thread-safe: one session's checkpoints are taken one after another ({@link ShadowRepository} locks).
 */
final class WorkspaceIndex {
    private final Path workspace;
    private final Dir root = new Dir();
    /** Reads the files whose stat changed. */
    private final BlobReader blobs = new BlobReader();
    /** Whether a full scan has happened: only then does the index stand for the whole workspace. */
    private boolean complete;
    private int files;

    /** @param workspace the workspace's real path (links resolved), the prefix of every path a tool reports */
    WorkspaceIndex(Path workspace) {
        this.workspace = workspace;
    }

    private sealed interface Node permits Dir, Entry {
    }

    /** A directory: its children by name, and its tree id while nothing below it changed. */
    private static final class Dir implements Node {
        final Map<String, Node> children = new HashMap<>();
        boolean dirty = true;
        /** Null with {@code dirty} false: no recorded file below, so no tree. */
        ObjectId tree;
    }

    /**
     * A recorded file.
     *
     * @param racy its stat cannot vouch for its content (see {@link FileStat#racy}): it is read again next time
     */
    record Entry(FileMode mode, ObjectId blob, FileStat stat, boolean racy) implements Node {
        boolean unchanged(FileStat now) {
            return !racy && stat.equals(now);
        }
    }

    /** The workspace's real path. */
    Path workspace() {
        return workspace;
    }

    boolean complete() {
        return complete;
    }

    /** How many files are recorded: the index's memory is about proportional to it. */
    int files() {
        return files;
    }

    /** How many times a file was read: what the stat checks save, seen by tests. */
    long reads() {
        return blobs.reads();
    }

    /** After a restore wrote files behind its back: the next checkpoint must look at the whole workspace. */
    void invalidate() {
        complete = false;
    }

    /**
     * Looks at the whole workspace: every entry is stat'ed, and files whose stat changed are read and their blobs
     * stored.
     *
     * @param stamp the file system's "now" taken before this scan ({@link FileSystemClock})
     */
    void scan(ObjectInserter objects, long stamp) throws IOException {
        try (WorkspaceDir top = WorkspacePaths.open(workspace).openRoot()) {
            scanDir(root, workspace, top, objects, stamp);
        }
        complete = true;
    }

    /**
     * Looks only at {@code paths}, the paths a tool reports it created, changed or deleted (a directory stands
     * for everything under it). Anything the index cannot be sure of (a path outside the workspace, a link or a
     * file where the index has a directory, an index that was never complete) makes it look at the whole workspace
     * instead: a scan too many costs time, a change missed would lose data on a rewind.
     */
    void update(Collection<Path> paths, ObjectInserter objects, long stamp) throws IOException {
        if (!complete) {
            scan(objects, stamp);
            return;
        }
        for (Path path : paths) {
            if (!updatePath(path, objects, stamp)) {
                scan(objects, stamp);
                return;
            }
        }
    }

    /** False when the path cannot be handled on its own. */
    private boolean updatePath(Path path, ObjectInserter objects, long stamp) throws IOException {
        Path absolute = path.toAbsolutePath().normalize();
        if (!absolute.startsWith(workspace)) {
            return false;
        }
        Path relative = workspace.relativize(absolute);
        if (relative.toString().isEmpty()) {
            return false; // the whole workspace
        }
        List<WorkspaceDir> opened = new ArrayList<>();
        try {
            opened.add(WorkspacePaths.open(workspace).openRoot());
            return updatePath(absolute, relative, opened, objects, stamp);
        } finally {
            for (WorkspaceDir dir : opened) {
                dir.close();
            }
        }
    }

    private boolean updatePath(Path absolute, Path relative, List<WorkspaceDir> opened,
                               ObjectInserter objects, long stamp) throws IOException {
        List<Dir> above = new ArrayList<>();
        boolean changed = false;
        Dir dir = root;
        Path current = workspace;
        int depth = relative.getNameCount();
        for (int i = 0; i < depth - 1; i++) {
            String name = relative.getName(i).toString();
            if (isGitDir(name)) {
                return true; // inside an agent's repository: never recorded
            }
            above.add(dir);
            current = current.resolve(name);
            FileStat stat = FileStat.of(opened.getLast(), name, current);
            if (stat == null) {
                // The directory is gone (a delete of a tree): so is everything the index had under it.
                markDirty(above, remove(dir, name));
                return true;
            }
            if (stat.kind() != FileStat.Kind.DIRECTORY) {
                return false; // the tool went through a link, or the directory was replaced: look at everything
            }
            try {
                opened.add(opened.getLast().openDirectory(name));
            } catch (FileSystemException replacedMeanwhile) {
                return false;
            }
            Dir next = dir.children.get(name) instanceof Dir known ? known : null;
            if (next == null) {
                // a directory the tool made (or one that replaced a file): what is in it, the paths reported say
                changed |= remove(dir, name);
                next = new Dir();
                dir.children.put(name, next);
            }
            dir = next;
        }
        above.add(dir);
        String name = relative.getFileName().toString();
        if (isGitDir(name)) {
            return true;
        }
        FileStat stat = FileStat.of(opened.getLast(), name, absolute);
        changed |= stat == null ? remove(dir, name)
                : visit(dir, name, absolute, opened.getLast(), stat, objects, stamp);
        markDirty(above, changed);
        return true;
    }

    private static void markDirty(List<Dir> dirs, boolean changed) {
        if (changed) {
            dirs.forEach(d -> d.dirty = true);
        }
    }

    /** @return whether anything recorded under {@code dir} changed */
    private boolean scanDir(Dir node, Path dir, WorkspaceDir entries, ObjectInserter objects, long stamp)
            throws IOException {
        boolean changed = false;
        Set<String> seen = new HashSet<>();
        List<String> names;
        try {
            names = entries.names();
        } catch (NoSuchFileException | NotDirectoryException replacedMeanwhile) {
            names = List.of(); // what it held is gone from the index too
        }
        for (String name : names) {
            Path path = dir.resolve(name);
            if (isGitDir(name)) {
                continue;
            }
            FileStat stat = FileStat.of(entries, name, path);
            if (stat == null || stat.kind() == FileStat.Kind.OTHER) {
                continue; // vanished meanwhile, or a socket, fifo or device: not recorded
            }
            seen.add(name);
            changed |= visit(node, name, path, entries, stat, objects, stamp);
        }
        for (String name : List.copyOf(node.children.keySet())) {
            if (!seen.contains(name)) {
                changed |= remove(node, name);
            }
        }
        if (changed) {
            node.dirty = true;
        }
        return changed;
    }

    /** Brings one child up to date with what is on disk now. @return whether anything recorded changed */
    private boolean visit(Dir parent, String name, Path path, WorkspaceDir in, FileStat stat,
                          ObjectInserter objects, long stamp) throws IOException {
        Node old = parent.children.get(name);
        if (stat.kind() == FileStat.Kind.DIRECTORY) {
            boolean replaced = !(old instanceof Dir);
            Dir dir = replaced ? new Dir() : (Dir) old;
            if (replaced) {
                remove(parent, name);
                parent.children.put(name, dir);
            }
            boolean changed;
            try (WorkspaceDir entries = in.openDirectory(name)) {
                changed = scanDir(dir, path, entries, objects, stamp);
            } catch (FileSystemException replacedMeanwhile) {
                // a link or a file now, or gone: the next look records what it is
                changed = false;
                for (String child : List.copyOf(dir.children.keySet())) {
                    changed |= remove(dir, child);
                }
                dir.dirty = true;
            }
            return changed || (replaced && old != null);
        }
        if (!stat.recorded()) {
            return remove(parent, name);
        }
        if (old instanceof Entry entry && entry.unchanged(stat)) {
            return false;
        }
        Entry fresh;
        try {
            fresh = blobs.read(name, in, stat, old instanceof Entry e ? e : null, objects, stamp);
        } catch (NoSuchFileException | SymbolicLinkException | WrongKindException replacedMeanwhile) {
            // deleted, or swapped for a link or a directory, between the stat and the read: the next look records it
            return remove(parent, name);
        }
        if (!(old instanceof Entry)) {
            remove(parent, name);
            files++;
        }
        parent.children.put(name, fresh);
        return !(old instanceof Entry e && e.blob().equals(fresh.blob()) && e.mode().equals(fresh.mode()));
    }

    /** @return whether a recorded file went with it */
    private boolean remove(Dir parent, String name) {
        Node gone = parent.children.remove(name);
        int count = countFiles(gone);
        files -= count;
        return count > 0;
    }

    private static int countFiles(Node node) {
        return switch (node) {
            case null -> 0;
            case Entry e -> 1;
            case Dir d -> d.children.values().stream().mapToInt(WorkspaceIndex::countFiles).sum();
        };
    }

    /**
     * The id of the workspace's tree, writing the trees of the directories that changed since the last call.
     * Null when no file is recorded.
     */
    ObjectId writeTree(ObjectInserter objects) throws IOException {
        return writeTree(root, objects);
    }

    private ObjectId writeTree(Dir dir, ObjectInserter objects) throws IOException {
        if (!dir.dirty) {
            return dir.tree;
        }
        List<GitTrees.TreeEntry> entries = new ArrayList<>(dir.children.size());
        for (Map.Entry<String, Node> child : dir.children.entrySet()) {
            byte[] name = child.getKey().getBytes(StandardCharsets.UTF_8);
            if (child.getValue() instanceof Entry file) {
                entries.add(new GitTrees.TreeEntry(name, file.mode(), file.blob()));
            } else {
                ObjectId tree = writeTree((Dir) child.getValue(), objects);
                if (tree != null) {
                    entries.add(new GitTrees.TreeEntry(name, FileMode.TREE, tree));
                }
            }
        }
        ObjectId id = GitTrees.insert(entries, objects);
        dir.tree = id;
        dir.dirty = false;
        return id;
    }

    /** Every recorded file by its path relative to the workspace ({@code /}-separated), for a restore. */
    void forEachFile(BiConsumer<String, Entry> action) {
        forEachFile(root, "", action);
    }

    private static void forEachFile(Dir dir, String prefix, BiConsumer<String, Entry> action) {
        for (Map.Entry<String, Node> child : dir.children.entrySet()) {
            String path = prefix + child.getKey();
            switch (child.getValue()) {
                case Entry e -> action.accept(path, e);
                case Dir d -> forEachFile(d, path + "/", action);
            }
        }
    }

    /** {@code .git} in any letter case: git refuses such paths, and they are the agent's own repositories. */
    static boolean isGitDir(String name) {
        return name.equalsIgnoreCase(".git");
    }
}
