package dev.agentbus.sandbox.checkpointing;

import dev.agentbus.sandbox.workspace.WorkspaceDir;
import dev.agentbus.sandbox.workspace.WorkspacePaths;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFileAttributes;

/**
 * The file system's own "now": the change time it gives an entry changed at this moment, in its own precision
 * (a whole second on some file systems, the kernel's clock tick on others). A stat taken after it can be trusted
 * for entries that changed strictly before it (see {@link FileStat#racy}). Read from the file system rather than
 * from the JVM's clock because only the file system's clock is what the workspace's times are compared with.
 */
final class FileSystemClock {
    private FileSystemClock() {
    }

    /**
     * Changes the change time of {@code workspace} itself (a chmod, through its handle, to the mode it already has:
     * nothing the agent could notice but that time) and reads it back. When that is not allowed (the workspace
     * belongs to another user and the worker is not root), or the time read back may not be the workspace's own
     * (its path was swapped meanwhile), a stamp file beside the repository, on the same volume, serves instead.
     */
    static long now(Path workspace, Path stampFile) throws IOException {
        try (WorkspaceDir root = WorkspacePaths.open(workspace).openRoot()) {
            PosixFileAttributes before = root.self();
            root.setOwnPermissions(before.permissions());
            FileStat after = FileStat.of(WorkspacePaths.open(workspace).root());
            if (after != null && before.fileKey().equals(after.inode())) {
                return after.changedNanos();
            }
        } catch (IOException | UnsupportedOperationException notOurs) {
            // the stamp file below
        }
        if (!Files.exists(stampFile, LinkOption.NOFOLLOW_LINKS)) {
            Files.createFile(stampFile);
        }
        return touch(stampFile);
    }

    private static long touch(Path path) throws IOException {
        PosixFileAttributeView view = Files.getFileAttributeView(path, PosixFileAttributeView.class,
                LinkOption.NOFOLLOW_LINKS);
        if (view == null) {
            throw new UnsupportedOperationException("no POSIX attributes");
        }
        view.setPermissions(view.readAttributes().permissions());
        FileStat stat = FileStat.of(path);
        if (stat == null) {
            throw new IOException("vanished while its time was read: " + path.getFileName());
        }
        return stat.changedNanos();
    }
}
