package dev.agentbus.sandbox.workspace;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

/**
 * Replaces a file's content so that a reader, or the file after a crash, sees either the old content or the new
 * one, never half of it.
 *
 * <p>How: write a temporary file in the same directory (so the rename stays on one file system), flush it to disk,
 * then rename it over the target with {@link StandardCopyOption#ATOMIC_MOVE}. A worker that dies mid-write leaves
 * at most a stray {@code .*.agentbus-tmp} file, never a truncated source file the agent would then build on.
 */
public final class AtomicFiles {
    /** Suffix of temporary files, so a leftover from a crash is recognisable. */
    public static final String TEMP_SUFFIX = ".agentbus-tmp";

    /** New files get the usual rw-r--r--; the temp file's default (rw-------) would surprise tools run later. */
    private static final Set<PosixFilePermission> NEW_FILE_PERMISSIONS = PosixFilePermissions.fromString("rw-r--r--");

    private AtomicFiles() {
    }

    /**
     * Writes {@code content} to {@code target}, creating parent directories. An existing file keeps its
     * permissions (an edited script stays executable).
     */
    public static void write(Path target, byte[] content) throws IOException {
        Path dir = target.toAbsolutePath().getParent();
        createDirectories(dir);
        Path ownerSource = Files.isRegularFile(target, LinkOption.NOFOLLOW_LINKS) ? target : dir;
        Set<PosixFilePermission> permissions = Files.isRegularFile(target, LinkOption.NOFOLLOW_LINKS)
                ? Files.getPosixFilePermissions(target, LinkOption.NOFOLLOW_LINKS)
                : NEW_FILE_PERMISSIONS;
        Path temp = Files.createTempFile(dir, "." + target.getFileName() + ".", TEMP_SUFFIX);
        try {
            try (FileChannel channel = FileChannel.open(temp, StandardOpenOption.WRITE,
                    StandardOpenOption.TRUNCATE_EXISTING)) {
                ByteBuffer buffer = ByteBuffer.wrap(content);
                while (buffer.hasRemaining()) {
                    channel.write(buffer);
                }
                // Without this the rename can reach the disk before the data, and a power cut leaves an empty file.
                channel.force(true);
            }
            Files.setPosixFilePermissions(temp, permissions);
            inheritOwner(temp, ownerSource);
            try {
                Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                // Same directory, so this means an unusual file system; refusing beats a non-atomic fallback.
                throw new IOException("the file system does not support atomic rename: " + e.getMessage(), e);
            }
            syncDirectory(dir);
        } finally {
            Files.deleteIfExists(temp);
        }
    }

    /**
     * Creates a directory and its missing parents; each new one takes the owner of the directory it is made in
     * (see {@link #inheritOwner}).
     */
    public static void createDirectories(Path dir) throws IOException {
        Path absolute = dir.toAbsolutePath();
        Path existing = absolute;
        while (existing != null && !Files.exists(existing, LinkOption.NOFOLLOW_LINKS)) {
            existing = existing.getParent();
        }
        Files.createDirectories(absolute);
        if (existing == null || existing.equals(absolute)) {
            return;
        }
        Path current = existing;
        for (Path name : existing.relativize(absolute)) {
            Path next = current.resolve(name);
            inheritOwner(next, current);
            current = next;
        }
    }

    /**
     * When the worker runs as root, a file or directory it makes takes the owner of {@code from} (the file it
     * replaces, or the directory it is made in). The sandbox runs as a non-root user who owns the workspace; a
     * root-owned file there could be read but not changed in place by the agent's own commands.
     */
    private static void inheritOwner(Path path, Path from) throws IOException {
        if (!WORKER_IS_ROOT) {
            return;
        }
        try {
            Object uid = Files.getAttribute(from, "unix:uid", LinkOption.NOFOLLOW_LINKS);
            Object gid = Files.getAttribute(from, "unix:gid", LinkOption.NOFOLLOW_LINKS);
            Files.setAttribute(path, "unix:uid", uid, LinkOption.NOFOLLOW_LINKS);
            Files.setAttribute(path, "unix:gid", gid, LinkOption.NOFOLLOW_LINKS);
        } catch (UnsupportedOperationException notUnix) {
            // No unix attributes (not Linux): ownership is the platform's business.
        }
    }

    private static final boolean WORKER_IS_ROOT = uidOfThisProcess() == 0;

    /** Whether this worker runs as root (read once): then what it makes must be handed to the sandbox's user. */
    public static boolean workerIsRoot() {
        return WORKER_IS_ROOT;
    }

    private static int uidOfThisProcess() {
        try {
            return (Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid");
        } catch (IOException | UnsupportedOperationException | ClassCastException e) {
            return -1;
        }
    }

    /** Makes the rename itself durable. Best effort: not every file system lets a directory be opened for sync. */
    private static void syncDirectory(Path dir) {
        try (FileChannel channel = FileChannel.open(dir, StandardOpenOption.READ)) {
            channel.force(true);
        } catch (IOException | UnsupportedOperationException ignored) {
            // The content is already safe; only the rename might be lost on a crash, leaving the old file intact.
        }
    }
}
