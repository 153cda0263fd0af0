package dev.agentbus.sandbox.checkpointing;

import dev.agentbus.sandbox.workspace.SymbolicLinkException;
import dev.agentbus.sandbox.workspace.WorkspaceDir;
import dev.agentbus.sandbox.workspace.WorkspacePaths;
import org.eclipse.jgit.lib.FileMode;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectReader;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Makes a workspace exactly the files of a checkpoint, as {@code git read-tree --reset -u} did: files the checkpoint
 * has are written where they differ, files it does not have are deleted, and directories emptied by that are
 * removed. Directories named {@code .git}, and anything else that is not recorded (an empty directory, a fifo), are
 * left alone unless they stand where a checkpoint's file must go.
 *
 * <p>Everything is done through directory handles ({@link WorkspaceDir}), never following a link: a link is replaced,
 * never written through, and each directory on the way to a file is a real directory opened through the one above
 * it (a file or a link there is removed first). A program the agent left running in the background that swaps a
 * directory for a link meanwhile can make the restore fail or replace its link, never reach a host file.
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
        try (WorkspaceDir root = WorkspacePaths.open(workspace).openRoot()) {
            TreeSet<String> emptied = new TreeSet<>(Comparator.reverseOrder());
            for (Map.Entry<String, WorkspaceIndex.Entry> file : current.entrySet()) {
                if (!target.containsKey(file.getKey())) {
                    delete(root, file.getKey(), false);
                    for (String dir = parent(file.getKey()); dir != null; dir = parent(dir)) {
                        emptied.add(dir);
                    }
                }
            }
            for (String dir : emptied) { // deepest first
                delete(root, dir, true);
            }
            for (Map.Entry<String, Target> file : target.entrySet()) {
                WorkspaceIndex.Entry now = current.get(file.getKey());
                Target wanted = file.getValue();
                if (now == null || !now.blob().equals(wanted.blob()) || !now.mode().equals(wanted.mode())) {
                    write(root, file.getKey(), wanted);
                }
            }
        }
    }

    /**
     * Deletes a file (or link) the checkpoint does not have, or a directory that emptied; reached through handles,
     * so a directory on the way that is a link now is left alone rather than followed.
     */
    private void delete(WorkspaceDir root, String relative, boolean emptiedDirectory) throws IOException {
        List<WorkspaceDir> opened = new ArrayList<>();
        try {
            WorkspaceDir dir = root;
            String parent = parent(relative);
            if (parent != null) {
                for (String name : parent.split("/")) {
                    dir = dir.openDirectory(checked(name));
                    opened.add(dir);
                }
            }
            String name = name(relative);
            PosixFileAttributes there = dir.stat(name);
            if (there == null || there.isDirectory() != emptiedDirectory) {
                return; // gone, or something else that is not recorded: stays
            }
            dir.delete(name);
        } catch (NoSuchFileException | NotDirectoryException | SymbolicLinkException
                 | DirectoryNotEmptyException notOurs) {
            // gone meanwhile, a link or a file where a directory was (left alone), or holds what is not recorded
        } finally {
            for (WorkspaceDir dir : opened) {
                dir.close();
            }
        }
    }

    private void write(WorkspaceDir root, String relative, Target file) throws IOException {
        List<WorkspaceDir> opened = new ArrayList<>();
        try {
            WorkspaceDir dir = directoryFor(root, relative, opened);
            String name = name(relative);
            PosixFileAttributes there = dir.stat(name);
            if (there != null && there.isDirectory()) {
                dir.deleteTree(name); // a directory where the checkpoint has a file: git removes it too
            }
            if (file.mode().equals(FileMode.SYMLINK)) {
                String target = new String(objects.open(file.blob()).getCachedBytes(), StandardCharsets.UTF_8);
                // A rename replaces whatever is at the name (a file, or a link: the link, not what it points to).
                dir.createSymbolicLink(name, target, true);
                return;
            }
            PosixFileAttributes now = dir.stat(name);
            if (now != null && !now.isRegularFile()) {
                dir.delete(name); // a link or a fifo where the checkpoint has a file: replaced, never written through
            }
            dir.writeAtomically(name, out -> objects.open(file.blob()).copyTo(out),
                    file.mode().equals(FileMode.EXECUTABLE_FILE) ? EXECUTABLE : FILE);
        } finally {
            for (WorkspaceDir dir : opened) {
                dir.close();
            }
        }
    }

    /**
     * The file's directory, made a real directory all the way down through handles: anything else in the way (a
     * file, a link, a fifo) is removed first, a link as a link.
     */
    private static WorkspaceDir directoryFor(WorkspaceDir root, String relative, List<WorkspaceDir> opened)
            throws IOException {
        WorkspaceDir dir = root;
        String parent = parent(relative);
        if (parent == null) {
            return dir;
        }
        for (String name : parent.split("/")) {
            checked(name);
            PosixFileAttributes stat = dir.stat(name);
            if (stat == null || !stat.isDirectory()) {
                if (stat != null) {
                    dir.delete(name);
                }
                try {
                    dir.createDirectory(name);
                } catch (FileAlreadyExistsException madeMeanwhile) {
                    // opened below as whatever it is: a link there is refused, never followed
                }
            }
            dir = dir.openDirectory(name);
            opened.add(dir);
        }
        return dir;
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

}
