package dev.agentbus.sandbox.checkpointing;

import dev.agentbus.sandbox.workspace.WorkspaceDir;
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
import java.util.Arrays;

/**
 * Reads workspace files into git blobs, through open directory handles ({@link WorkspaceDir}) so that no link is
 * ever followed. Apart
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
     * Reads one file (or a link's target) through its directory's handle, never following a link, and stores its
     * blob, unless it is the one recorded already. The stat was taken before the read: a write during the read
     * changes the stat, so the next scan reads the file again.
     */
    WorkspaceIndex.Entry read(String name, WorkspaceDir in, FileStat stat, WorkspaceIndex.Entry old,
                              ObjectInserter objects, long stamp) throws IOException {
        FileMode mode = switch (stat.kind()) {
            case EXECUTABLE -> FileMode.EXECUTABLE_FILE;
            case SYMLINK -> FileMode.SYMLINK;
            default -> FileMode.REGULAR_FILE;
        };
        ObjectId blob;
        reads++;
        if (stat.kind() == FileStat.Kind.SYMLINK) {
            blob = store(in.readSymbolicLink(name).getBytes(StandardCharsets.UTF_8), old, objects);
        } else {
            try (SeekableByteChannel channel = in.openForReading(name)) {
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
