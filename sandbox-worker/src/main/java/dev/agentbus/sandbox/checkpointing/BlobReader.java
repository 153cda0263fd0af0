package dev.agentbus.sandbox.checkpointing;

import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.FileMode;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectInserter;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.Set;

/**
 * Reads workspace files into git blobs, through open directory handles so that no link is ever followed. Apart
 * from {@link WorkspaceIndex}, which decides what to read, because how a file is read safely and stored cheaply
 * (in memory or streamed, not stored again when unchanged) is its own concern.
 */
final class BlobReader {
    /** Files up to this size are read into memory; larger ones are streamed into the repository. */
    private static final long IN_MEMORY_LIMIT = 8L << 20;

    private final ObjectInserter.Formatter hasher = new ObjectInserter.Formatter();
    /** How many times a file was read: what the stat checks save, seen by tests. */
    private long reads;

    long reads() {
        return reads;
    }

    /**
     * Opens a subdirectory through its parent's open handle, refusing a link ({@code openat} with
     * {@code O_NOFOLLOW}): the files below are then read through handles too, so a directory swapped for a link
     * while the worker looks (by a program the agent left running) is never read through, and no file outside the
     * workspace can end up in a checkpoint. Where the platform has no such handles, by path.
     */
    static DirectoryStream<Path> openChild(DirectoryStream<Path> parent, Path path, String name)
            throws IOException {
        return parent instanceof SecureDirectoryStream<Path> dir
                ? dir.newDirectoryStream(Path.of(name), LinkOption.NOFOLLOW_LINKS)
                : Files.newDirectoryStream(path);
    }

    /**
     * Reads one file (or a link's target) and stores its blob, unless it is the one recorded already. The stat was
     * taken before the read: a write during the read changes the stat, so the next scan reads the file again.
     */
    WorkspaceIndex.Entry read(Path path, String name, DirectoryStream<Path> in, FileStat stat,
                              WorkspaceIndex.Entry old, ObjectInserter objects, long stamp) throws IOException {
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
        return new WorkspaceIndex.Entry(mode, blob, stat, stat.racy(stamp));
    }

    private ObjectId store(byte[] content, WorkspaceIndex.Entry old, ObjectInserter objects) throws IOException {
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
        return buffer.position() == size ? buffer.array() : Arrays.copyOf(buffer.array(), buffer.position());
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
}
