package dev.agentbus.sandbox.checkpointing;

import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.FileMode;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectInserter;
import org.eclipse.jgit.lib.TreeFormatter;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.nio.file.StandardOpenOption;
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
 * it, no empty directory and no special file. Files are opened without following a link, so a link swapped in
 * for a file is never read through.
 *
 * <p>Not thread-safe: one session's checkpoints are taken one after another ({@link ShadowRepository} locks).
 */
final class WorkspaceIndex {
    /** Files up to this size are read into memory; larger ones are streamed into the repository. */
    private static final long IN_MEMORY_LIMIT = 8L << 20;

    private final Path workspace;
    private final Dir root = new Dir();
    private final ObjectInserter.Formatter hasher = new ObjectInserter.Formatter();
    /** Whether a full scan has happened: only then does the index stand for the whole workspace. */
    private boolean complete;
    private int files;
    /** How many times a file was read: what the stat checks save, seen by tests. */
    private long reads;

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

    long reads() {
        return reads;
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
        try (DirectoryStream<Path> top = Files.newDirectoryStream(workspace)) {
            scanDir(root, workspace, top, objects, stamp);
        }
        complete = true;
    }

    /**
     * Looks only at {@code paths}, the real paths a tool reports it created, changed or deleted (a directory stands
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
        List<DirectoryStream<Path>> opened = new ArrayList<>();
        try {
            opened.add(Files.newDirectoryStream(workspace));
            return updatePath(absolute, relative, opened, objects, stamp);
        } finally {
            for (DirectoryStream<Path> stream : opened) {
                stream.close();
            }
        }
    }

    private boolean updatePath(Path absolute, Path relative, List<DirectoryStream<Path>> opened,
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
            FileStat stat = FileStat.of(current);
            if (stat == null) {
                // The directory is gone (a delete of a tree): so is everything the index had under it.
                markDirty(above, remove(dir, name));
                return true;
            }
            if (stat.kind() != FileStat.Kind.DIRECTORY) {
                return false; // the tool went through a link, or the directory was replaced: look at everything
            }
            try {
                opened.add(openChild(opened.getLast(), current, name));
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
        FileStat stat = FileStat.of(absolute);
        changed |= stat == null ? remove(dir, name)
                : visit(dir, name, absolute, opened.getLast(), stat, objects, stamp);
        markDirty(above, changed);
        return true;
    }

    /**
     * Opens a subdirectory through its parent's open handle, refusing a link ({@code openat} with
     * {@code O_NOFOLLOW}): the files below are then read through handles too, so a directory swapped for a link
     * while the worker looks (by a program the agent left running) is never read through, and no file outside the
     * workspace can end up in a checkpoint. Where the platform has no such handles, by path.
     */
    private static DirectoryStream<Path> openChild(DirectoryStream<Path> parent, Path path, String name)
            throws IOException {
        return parent instanceof SecureDirectoryStream<Path> dir
                ? dir.newDirectoryStream(Path.of(name), LinkOption.NOFOLLOW_LINKS)
                : Files.newDirectoryStream(path);
    }

    private static void markDirty(List<Dir> dirs, boolean changed) {
        if (changed) {
            dirs.forEach(d -> d.dirty = true);
        }
    }

    /** @return whether anything recorded under {@code dir} changed */
    private boolean scanDir(Dir node, Path dir, DirectoryStream<Path> entries, ObjectInserter objects, long stamp)
            throws IOException {
        boolean changed = false;
        Set<String> seen = new HashSet<>();
        try {
            for (Path entry : entries) {
                String name = entry.getFileName().toString();
                Path path = dir.resolve(name);
                if (isGitDir(name)) {
                    continue;
                }
                FileStat stat = FileStat.of(path);
                if (stat == null || stat.kind() == FileStat.Kind.OTHER) {
                    continue; // vanished meanwhile, or a socket, fifo or device: not recorded
                }
                seen.add(name);
                changed |= visit(node, name, path, entries, stat, objects, stamp);
            }
        } catch (java.nio.file.DirectoryIteratorException e) {
            if (!(e.getCause() instanceof NoSuchFileException || e.getCause() instanceof NotDirectoryException)) {
                throw e.getCause();
            }
            // replaced or removed while we looked: what it held is gone from the index too
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
    private boolean visit(Dir parent, String name, Path path, DirectoryStream<Path> in, FileStat stat,
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
            try (DirectoryStream<Path> entries = openChild(in, path, name)) {
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
            fresh = read(path, name, in, stat, old instanceof Entry e ? e : null, objects, stamp);
        } catch (NoSuchFileException vanished) {
            return remove(parent, name); // deleted between the stat and the read
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
     * Reads one file (or a link's target) and stores its blob, unless it is the one recorded already. The stat was
     * taken before the read: a write during the read changes the stat, so the next scan reads the file again.
     */
    private Entry read(Path path, String name, DirectoryStream<Path> in, FileStat stat, Entry old,
                       ObjectInserter objects, long stamp) throws IOException {
        FileMode mode = switch (stat.kind()) {
            case EXECUTABLE -> FileMode.EXECUTABLE_FILE;
            case SYMLINK -> FileMode.SYMLINK;
            default -> FileMode.REGULAR_FILE;
        };
        ObjectId blob;
        reads++;
        if (stat.kind() == FileStat.Kind.SYMLINK) {
            blob = store(Files.readSymbolicLink(path).toString().getBytes(StandardCharsets.UTF_8), old, objects);
        } else {
            try (SeekableByteChannel channel = in instanceof SecureDirectoryStream<Path> dir
                    ? dir.newByteChannel(Path.of(name), Set.of(StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS))
                    : Files.newByteChannel(path, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)) {
                long size = channel.size();
                blob = size <= IN_MEMORY_LIMIT ? store(readFully(channel, (int) size), old, objects)
                        : objects.insert(Constants.OBJ_BLOB, size, bounded(channel, size));
            }
        }
        return new Entry(mode, blob, stat, stat.racy(stamp));
    }

    private ObjectId store(byte[] content, Entry old, ObjectInserter objects) throws IOException {
        ObjectId id = hasher.idFor(Constants.OBJ_BLOB, content);
        if (old != null && old.blob().equals(id)) {
            return id; // the same content (a touch, or a write of what was there): stored already
        }
        return objects.insert(Constants.OBJ_BLOB, content);
    }

    /** Up to {@code size} bytes; fewer if the file was cut short meanwhile (its stat then differs next time). */
    private static byte[] readFully(SeekableByteChannel channel, int size) throws IOException {
        ByteBuffer buffer = ByteBuffer.allocate(size);
        while (buffer.hasRemaining() && channel.read(buffer) >= 0) {
            // keep reading
        }
        return buffer.position() == size ? buffer.array() : java.util.Arrays.copyOf(buffer.array(), buffer.position());
    }

    private static InputStream bounded(SeekableByteChannel channel, long size) {
        InputStream in = Channels.newInputStream(channel);
        return new InputStream() {
            long left = size;

            @Override
            public int read() throws IOException {
                if (left <= 0) {
                    return -1;
                }
                int b = in.read();
                if (b >= 0) {
                    left--;
                }
                return b;
            }

            @Override
            public int read(byte[] buf, int off, int len) throws IOException {
                if (left <= 0) {
                    return -1;
                }
                int n = in.read(buf, off, (int) Math.min(len, left));
                if (n > 0) {
                    left -= n;
                }
                return n;
            }
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
        List<TreeEntry> entries = new ArrayList<>(dir.children.size());
        for (Map.Entry<String, Node> child : dir.children.entrySet()) {
            byte[] name = child.getKey().getBytes(StandardCharsets.UTF_8);
            if (child.getValue() instanceof Entry file) {
                entries.add(new TreeEntry(name, file.mode(), file.blob()));
            } else {
                ObjectId tree = writeTree((Dir) child.getValue(), objects);
                if (tree != null) {
                    entries.add(new TreeEntry(name, FileMode.TREE, tree));
                }
            }
        }
        ObjectId id = null;
        if (!entries.isEmpty()) {
            entries.sort(TreeEntry::compare);
            TreeFormatter tree = new TreeFormatter();
            for (TreeEntry e : entries) {
                tree.append(e.name(), e.mode(), e.id());
            }
            id = tree.insertTo(objects);
        }
        dir.tree = id;
        dir.dirty = false;
        return id;
    }

    /** One line of a tree object. */
    private record TreeEntry(byte[] name, FileMode mode, ObjectId id) {
        /**
         * Git's order: by the bytes of the name, a directory's name compared as if it ended in {@code /}. Another
         * order would give another tree id for the same files, and git would call the tree corrupt.
         */
        static int compare(TreeEntry a, TreeEntry b) {
            int n = Math.min(a.name.length, b.name.length);
            for (int i = 0; i < n; i++) {
                int d = (a.name[i] & 0xff) - (b.name[i] & 0xff);
                if (d != 0) {
                    return d;
                }
            }
            return next(a, n) - next(b, n);
        }

        private static int next(TreeEntry e, int at) {
            return e.name.length > at ? e.name[at] & 0xff : e.mode == FileMode.TREE ? '/' : 0;
        }
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
