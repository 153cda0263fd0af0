package dev.agentbus.sandbox.checkpointing;

import dev.agentbus.sandbox.workspace.WorkspaceDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * What {@code lstat} says about one workspace entry, never following a link: enough to tell, without reading it,
 * that a file is the one recorded before. The same fields git keeps in its index (size, both times, inode, mode),
 * because each guards against a different way a file can change:
 * <ul>
 *   <li>the size and the modification time catch most writes;</li>
 *   <li>the inode catches a file replaced by a rename (every atomic write, {@code sed -i});</li>
 *   <li>the change time catches the rest, and cannot be forged: {@code touch -d} can set the modification time back
 *       to what it was, but setting it moves the change time to now.</li>
 * </ul>
 * Times are nanoseconds since the epoch, as precise as the file system keeps them.
 */
record FileStat(Kind kind, int mode, long size, long modifiedNanos, long changedNanos, Object inode) {
    private static final String ATTRIBUTES = "unix:mode,fileKey,size,lastModifiedTime,ctime";
    /** A change time that could not be read for certain: the entry counts as racy, so it is read again next time. */
    private static final long UNKNOWN = Long.MAX_VALUE;

    enum Kind { FILE, EXECUTABLE, SYMLINK, DIRECTORY, OTHER }

    /**
     * An entry of a workspace directory, through the directory's handle ({@code fstatat}, never following a link);
     * null when there is none. The change time, which the handle cannot give, is read by {@code hostPath} and
     * taken only if that names the very same inode: a path swapped meanwhile gives an unknown change time (the
     * entry is then read again next time), never another file's state.
     */
    static FileStat of(WorkspaceDir dir, String name, Path hostPath) throws IOException {
        PosixFileAttributes a = dir.stat(name);
        if (a == null) {
            return null;
        }
        Kind kind = a.isSymbolicLink() ? Kind.SYMLINK : a.isDirectory() ? Kind.DIRECTORY
                : !a.isRegularFile() ? Kind.OTHER
                : a.permissions().contains(PosixFilePermission.OWNER_EXECUTE) ? Kind.EXECUTABLE : Kind.FILE;
        int typeBits = switch (kind) {
            case FILE, EXECUTABLE -> 0100000;
            case SYMLINK -> 0120000;
            case DIRECTORY -> 0040000;
            case OTHER -> 0;
        };
        long changed = UNKNOWN;
        try {
            Map<String, Object> byName = Files.readAttributes(hostPath, "unix:fileKey,ctime", LinkOption.NOFOLLOW_LINKS);
            if (a.fileKey() != null && a.fileKey().equals(byName.get("fileKey"))) {
                changed = nanos(byName.get("ctime"));
            }
        } catch (IOException swappedOrGone) {
            // unknown: read again next time
        }
        return new FileStat(kind, typeBits | modeBits(a.permissions()), a.size(),
                a.lastModifiedTime().to(TimeUnit.NANOSECONDS), changed, a.fileKey());
    }

    private static int modeBits(Set<PosixFilePermission> permissions) {
        int bits = 0;
        for (PosixFilePermission p : permissions) {
            bits |= 0400 >> p.ordinal();
        }
        return bits;
    }

    /**
     * The state of a path by name, never following a link at its end: only for the worker's own files and for
     * tests (a workspace entry goes through {@link #of(WorkspaceDir, String, Path)}).
     */
    static FileStat of(Path path) throws IOException {
        Map<String, Object> a;
        try {
            a = Files.readAttributes(path, ATTRIBUTES, LinkOption.NOFOLLOW_LINKS);
        } catch (NoSuchFileException | NotDirectoryException gone) {
            return null;
        }
        int mode = (Integer) a.get("mode");
        return new FileStat(kindOf(mode), mode, (Long) a.get("size"), nanos(a.get("lastModifiedTime")),
                nanos(a.get("ctime")), a.get("fileKey"));
    }

    /**
     * Git's modes: a regular file is executable when its owner may execute it; a symbolic link is recorded as
     * its target; sockets, fifos and devices are not recorded at all.
     */
    private static Kind kindOf(int mode) {
        return switch (mode & 0170000) {
            case 0100000 -> (mode & 0100) != 0 ? Kind.EXECUTABLE : Kind.FILE;
            case 0120000 -> Kind.SYMLINK;
            case 0040000 -> Kind.DIRECTORY;
            default -> Kind.OTHER;
        };
    }

    boolean recorded() {
        return kind == Kind.FILE || kind == Kind.EXECUTABLE || kind == Kind.SYMLINK;
    }

    /**
     * Whether a write after this stat could leave every field as it is: when the entry changed at or after
     * {@code stamp}, the file system's "now" taken before the stat, a second write in the same tick of its clock
     * would get the same times (git calls such an entry "racily clean"). Such an entry is read again next time.
     */
    boolean racy(long stamp) {
        return changedNanos == UNKNOWN || changedNanos >= stamp || modifiedNanos >= stamp;
    }

    private static long nanos(Object time) {
        return ((FileTime) time).to(TimeUnit.NANOSECONDS);
    }
}
