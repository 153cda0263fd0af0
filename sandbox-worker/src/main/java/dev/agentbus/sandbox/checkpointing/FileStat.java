package dev.agentbus.sandbox.checkpointing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.Map;
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
record FileStat(Kind kind, int mode, long size, long modifiedNanos, long changedNanos, long inode) {
    private static final String ATTRIBUTES = "unix:mode,ino,size,lastModifiedTime,ctime";

    enum Kind { FILE, EXECUTABLE, SYMLINK, DIRECTORY, OTHER }

    /** The entry's state, or null when there is none (it vanished, or a path component is not a directory). */
    static FileStat of(Path path) throws IOException {
        Map<String, Object> a;
        try {
            a = Files.readAttributes(path, ATTRIBUTES, LinkOption.NOFOLLOW_LINKS);
        } catch (NoSuchFileException | NotDirectoryException gone) {
            return null;
        }
        int mode = (Integer) a.get("mode");
        return new FileStat(kindOf(mode), mode, (Long) a.get("size"), nanos(a.get("lastModifiedTime")),
                nanos(a.get("ctime")), (Long) a.get("ino"));
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
        return changedNanos >= stamp || modifiedNanos >= stamp;
    }

    private static long nanos(Object time) {
        return ((FileTime) time).to(TimeUnit.NANOSECONDS);
    }
}
