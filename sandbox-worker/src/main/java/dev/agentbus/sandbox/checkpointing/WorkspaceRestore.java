package dev.agentbus.sandbox.checkpointing;

import dev.agentbus.sandbox.workspace.AtomicFiles;
import org.eclipse.jgit.lib.FileMode;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectReader;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Comparator;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Makes a workspace exactly the files of a checkpoint, as {@code git read-tree --reset -u} did: files the checkpoint
 * has are written where they differ, files it does not have are deleted, and directories emptied by that are
 * removed. Directories named {@code .git}, and anything else that is not recorded (an empty directory, a fifo), are
 * left alone unless they stand where a checkpoint's file must go.
 *
 * <p>Everything is done without following a link: a link is replaced, never written through, and each directory on
 * the way to a file is checked to be a real directory (a file or a link there is removed first). Like every check of
 * the workspace from the host, this is check-then-act; nothing of the session runs on its own during a rewind or a
 * fork's restore except programs the agent left running in the background.
 */
final class WorkspaceRestore {
    private static final Set<PosixFilePermission> FILE = PosixFilePermissions.fromString("rw-r--r--");
    private static final Set<PosixFilePermission> EXECUTABLE = PosixFilePermissions.fromString("rwxr-xr-x");

    /** A file of the checkpoint: its mode (regular, executable or link) and its blob. */
    record Target(FileMode mode, ObjectId blob) {
    }

    private final Path workspace;
    private final ObjectReader objects;

    WorkspaceRestore(Path workspace, ObjectReader objects) {
        this.workspace = workspace;
        this.objects = objects;
    }

    /**
     * @param current what the workspace holds now, by {@code /}-separated relative path (from a full scan)
     * @param target  what it must hold
     */
    void apply(Map<String, WorkspaceIndex.Entry> current, Map<String, Target> target) throws IOException {
        TreeSet<String> emptied = new TreeSet<>(Comparator.reverseOrder());
        for (Map.Entry<String, WorkspaceIndex.Entry> file : current.entrySet()) {
            if (!target.containsKey(file.getKey())) {
                Files.deleteIfExists(at(file.getKey()));
                for (String dir = parent(file.getKey()); dir != null; dir = parent(dir)) {
                    emptied.add(dir);
                }
            }
        }
        for (String dir : emptied) { // deepest first
            try {
                Files.deleteIfExists(at(dir));
            } catch (DirectoryNotEmptyException | java.nio.file.NotDirectoryException stillUsed) {
                // holds other files, or something that is not recorded: stays
            }
        }
        for (Map.Entry<String, Target> file : target.entrySet()) {
            WorkspaceIndex.Entry now = current.get(file.getKey());
            Target wanted = file.getValue();
            if (now == null || !now.blob().equals(wanted.blob()) || !now.mode().equals(wanted.mode())) {
                write(file.getKey(), wanted);
            }
        }
    }

    private void write(String relative, Target file) throws IOException {
        Path dir = directoryFor(relative);
        Path path = dir.resolve(name(relative));
        FileStat there = FileStat.of(path);
        if (there != null && there.kind() == FileStat.Kind.DIRECTORY) {
            deleteTree(path); // a directory where the checkpoint has a file: git removes it too
        }
        if (file.mode().equals(FileMode.SYMLINK)) {
            String target = new String(objects.open(file.blob()).getCachedBytes(), StandardCharsets.UTF_8);
            Files.deleteIfExists(path);
            Files.createSymbolicLink(path, Path.of(target));
            inheritOwner(path, dir);
            return;
        }
        Path temp = dir.resolve("." + name(relative) + "." + Long.toHexString(ThreadLocalRandom.current().nextLong())
                + AtomicFiles.TEMP_SUFFIX);
        try {
            try (OutputStream out = Files.newOutputStream(temp, StandardOpenOption.CREATE_NEW,
                    StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS)) {
                objects.open(file.blob()).copyTo(out);
            }
            Files.setPosixFilePermissions(temp, file.mode().equals(FileMode.EXECUTABLE_FILE) ? EXECUTABLE : FILE);
            inheritOwner(temp, dir);
            // A rename replaces whatever is at the path (a file, or a link: the link, not what it points to).
            Files.move(temp, path, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } finally {
            Files.deleteIfExists(temp);
        }
    }

    /** The file's directory, made a real directory all the way down: anything else in the way is removed. */
    private Path directoryFor(String relative) throws IOException {
        Path dir = workspace;
        String parent = parent(relative);
        if (parent == null) {
            return dir;
        }
        for (String name : parent.split("/")) {
            Path next = dir.resolve(checked(name));
            FileStat stat = FileStat.of(next);
            if (stat == null || stat.kind() != FileStat.Kind.DIRECTORY) {
                if (stat != null) {
                    Files.delete(next); // a file, link or fifo where the checkpoint has a directory
                }
                Files.createDirectory(next);
                inheritOwner(next, dir);
            }
            dir = next;
        }
        return dir;
    }

    private Path at(String relative) {
        Path path = workspace;
        for (String name : relative.split("/")) {
            path = path.resolve(checked(name));
        }
        return path;
    }

    private static String name(String relative) {
        return checked(relative.substring(relative.lastIndexOf('/') + 1));
    }

    private static String parent(String relative) {
        int slash = relative.lastIndexOf('/');
        return slash < 0 ? null : relative.substring(0, slash);
    }

    /**
     * A path component from a tree, refused if it could name anything outside its directory. The trees are the
     * worker's own, so this never fires unless a repository was tampered with; it is cheap, so it is checked.
     */
    private static String checked(String name) {
        if (name.isEmpty() || name.equals(".") || name.equals("..") || name.indexOf('\0') >= 0
                || name.indexOf('/') >= 0 || WorkspaceIndex.isGitDir(name)) {
            throw new IllegalArgumentException("a checkpoint holds a path that cannot be restored: " + name);
        }
        return name;
    }

    /** Removes a directory and everything in it, links as links. */
    private static void deleteTree(Path dir) throws IOException {
        Files.walkFileTree(dir, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                Files.deleteIfExists(file);
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path d, IOException e) throws IOException {
                Files.deleteIfExists(d);
                return FileVisitResult.CONTINUE;
            }
        });
    }

    /**
     * When the worker runs as root, what it writes takes the owner of the directory it is in, so the sandbox's user
     * can change the restored files (see {@link AtomicFiles#workerIsRoot}).
     */
    private static void inheritOwner(Path path, Path from) throws IOException {
        if (!AtomicFiles.workerIsRoot()) {
            return;
        }
        try {
            Object uid = Files.getAttribute(from, "unix:uid", LinkOption.NOFOLLOW_LINKS);
            Object gid = Files.getAttribute(from, "unix:gid", LinkOption.NOFOLLOW_LINKS);
            Files.setAttribute(path, "unix:uid", uid, LinkOption.NOFOLLOW_LINKS);
            Files.setAttribute(path, "unix:gid", gid, LinkOption.NOFOLLOW_LINKS);
        } catch (UnsupportedOperationException | NoSuchFileException notHere) {
            // no unix attributes, or gone already: ownership stays as made
        }
    }
}
