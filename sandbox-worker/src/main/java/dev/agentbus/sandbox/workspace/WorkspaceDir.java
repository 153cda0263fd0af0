package dev.agentbus.sandbox.workspace;

import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

/**
 * One directory of a workspace, held open: every operation names a single entry of it and goes through the held
 * handle ({@code openat}, {@code fstatat}, {@code unlinkat}, {@code renameat} of Java's {@link SecureDirectoryStream}),
 * never following a link. Nothing here turns a path into a file by name, so a program in the sandbox that swaps a
 * directory or a file for a link at any moment (issue 28) cannot make the worker, which runs as root, read or write
 * outside the workspace: at worst the operation fails, or acts on the link itself.
 *
 * <p>Three things {@code SecureDirectoryStream} cannot do (create a directory, create a link, read a link) go through
 * {@code /proc/self/fd/<n>/<name>} of this very directory's descriptor ({@link DescriptorPath}).
 *
 * <p>Known limit: a swap of an entry for a FIFO between its check and its opening makes the open wait for a writer
 * (Java has no {@code O_NONBLOCK} for files); that blocks the call, it reaches nothing outside.
 *
 * <p>Not thread-safe; close it when done.
 */
public final class WorkspaceDir implements Closeable {
    private static final LinkOption NOFOLLOW = LinkOption.NOFOLLOW_LINKS;
    private static final Set<PosixFilePermission> NEW_FILE = PosixFilePermissions.fromString("rw-r--r--");

    private final SecureDirectoryStream<Path> handle;
    private final String relative;
    private final DescriptorPath descriptor;

    private WorkspaceDir(SecureDirectoryStream<Path> handle, String relative) {
        this.handle = handle;
        this.relative = relative;
        this.descriptor = new DescriptorPath(this);
    }

    /**
     * Opens a directory by its path. Only for a directory no sandbox can change: the parent of a workspace, or the
     * worker's own directories. Everything below it is then reached through handles.
     */
    static WorkspaceDir openTrusted(Path dir, String relative) throws IOException {
        DirectoryStream<Path> stream = Files.newDirectoryStream(dir);
        if (!(stream instanceof SecureDirectoryStream<Path> secure)) {
            stream.close();
            throw new IOException("this platform has no secure directory handles (openat); the worker refuses file "
                    + "operations it cannot do without following links");
        }
        return new WorkspaceDir(secure, relative);
    }

    /**
     * Opens a workspace's root: its parent by path (no sandbox can change it: in the user scope it is the
     * container's mount point, and above it nothing is mounted), the root itself through the parent's handle,
     * refusing a link (a user-scope container could swap a session's directory for one).
     */
    static WorkspaceDir openRoot(Path workspace) throws IOException {
        Path absolute = workspace.toAbsolutePath().normalize();
        try (WorkspaceDir parent = openTrusted(absolute.getParent(), "")) {
            String name = absolute.getFileName().toString();
            PosixFileAttributes attributes = parent.stat(name);
            if (attributes == null) {
                throw new NoSuchFileException(".", null, "the workspace directory does not exist");
            }
            if (attributes.isSymbolicLink()) {
                throw new FileSystemException(".", null, "the workspace directory is a symbolic link");
            }
            try {
                return new WorkspaceDir(parent.handle.newDirectoryStream(Path.of(name), NOFOLLOW), "");
            } catch (FileSystemException e) {
                throw new FileSystemException(".", null, "the workspace directory cannot be opened: "
                        + e.getReason());
            }
        }
    }

    /** The workspace-relative path of this directory, "" for the workspace root. */
    public String relative() {
        return relative;
    }

    /** The workspace-relative path of an entry of this directory, for messages. */
    public String pathOf(String name) {
        return relative.isEmpty() ? name : relative + "/" + name;
    }

    /** An entry's attributes ({@code fstatat} without following a link); null when there is no such entry. */
    public PosixFileAttributes stat(String name) throws IOException {
        try {
            return view(name).readAttributes();
        } catch (NoSuchFileException | NotDirectoryException gone) {
            return null;
        }
    }

    /** This directory's own attributes ({@code fstat} of the handle). */
    public PosixFileAttributes self() throws IOException {
        return handle.getFileAttributeView(PosixFileAttributeView.class).readAttributes();
    }

    /** Changes an entry's permissions through this handle, never following a link. */
    public void setPermissions(String name, Set<PosixFilePermission> permissions) throws IOException {
        view(name).setPermissions(permissions);
    }

    /** Changes this directory's permissions through its handle ({@code fchmod}). */
    public void setOwnPermissions(Set<PosixFilePermission> permissions) throws IOException {
        handle.getFileAttributeView(PosixFileAttributeView.class).setPermissions(permissions);
    }

    private PosixFileAttributeView view(String name) {
        return handle.getFileAttributeView(Path.of(checked(name)), PosixFileAttributeView.class, NOFOLLOW);
    }

    /**
     * Opens a subdirectory. A link there is refused with {@link SymbolicLinkException}, anything else that is not a
     * directory with {@link NotDirectoryException}.
     */
    public WorkspaceDir openDirectory(String name) throws IOException {
        PosixFileAttributes attributes = stat(name);
        if (attributes == null) {
            throw new NoSuchFileException(pathOf(name));
        }
        refuseLinkOrKind(name, attributes, true);
        try {
            return new WorkspaceDir(handle.newDirectoryStream(Path.of(name), NOFOLLOW), pathOf(name));
        } catch (IOException e) {
            throw swappedMeanwhile(name, e);
        }
    }

    /** The names in this directory, in no particular order. */
    public List<String> names() throws IOException {
        List<String> names = new ArrayList<>();
        // A directory stream can be read once; a fresh handle on "." reads the current entries every time.
        try (SecureDirectoryStream<Path> again = handle.newDirectoryStream(Path.of("."), NOFOLLOW)) {
            for (Path entry : again) {
                names.add(entry.getFileName().toString());
            }
        }
        return names;
    }

    /** Opens a regular file for reading; a link or anything else is refused. */
    public SeekableByteChannel openForReading(String name) throws IOException {
        PosixFileAttributes attributes = stat(name);
        if (attributes == null) {
            throw new NoSuchFileException(pathOf(name));
        }
        refuseLinkOrKind(name, attributes, false);
        try {
            return handle.newByteChannel(Path.of(name), Set.of(StandardOpenOption.READ, NOFOLLOW));
        } catch (IOException e) {
            throw swappedMeanwhile(name, e);
        }
    }

    /**
     * A whole regular file of at most {@code maxBytes}; more is an error naming the size. The size is checked on the
     * open file, not before opening it, so a file swapped meanwhile cannot slip a larger one through.
     */
    public byte[] readAll(String name, long maxBytes) throws IOException {
        try (SeekableByteChannel channel = openForReading(name)) {
            long size = channel.size();
            if (size > maxBytes) {
                throw new FileTooLargeException(pathOf(name), size, maxBytes);
            }
            ByteBuffer buffer = ByteBuffer.allocate((int) size);
            while (buffer.hasRemaining() && channel.read(buffer) >= 0) {
                // keep reading
            }
            return buffer.position() == size ? buffer.array() : Arrays.copyOf(buffer.array(), buffer.position());
        }
    }

    /**
     * Replaces (or creates) a regular file atomically: a temporary file made in this directory ({@code O_CREAT |
     * O_EXCL | O_NOFOLLOW}), flushed to disk, then renamed over the name. A reader, or the file after a crash, sees
     * the old content or the new, never half. An existing file keeps its permissions and owner; a new one gets
     * {@code rw-r--r--} and the owner of this directory when the worker is root (the sandbox's user must be able to
     * change it). A link or a directory at the name is refused.
     */
    public void writeAtomically(String name, byte[] content) throws IOException {
        writeAtomically(name, out -> out.write(content), null);
    }

    /** Writes a file's content. */
    public interface Content {
        void writeTo(OutputStream out) throws IOException;
    }

    /**
     * {@link #writeAtomically(String, byte[])} for content that is streamed (a large blob of a checkpoint), with the
     * permissions to give it; null keeps those of the file replaced ({@code rw-r--r--} for a new one).
     */
    public void writeAtomically(String name, Content content, Set<PosixFilePermission> permissions)
            throws IOException {
        PosixFileAttributes existing = stat(name);
        if (existing != null) {
            refuseLinkOrKind(name, existing, false);
        }
        PosixFileAttributes ownerSource = existing != null ? existing : self();
        Set<PosixFilePermission> mode = permissions != null ? permissions
                : existing != null ? existing.permissions() : NEW_FILE;
        String temp = tempName(name);
        try {
            try (SeekableByteChannel channel = handle.newByteChannel(Path.of(temp), Set.of(StandardOpenOption.WRITE,
                    StandardOpenOption.CREATE_NEW, NOFOLLOW))) {
                OutputStream out = Channels.newOutputStream(channel);
                content.writeTo(out);
                out.flush();
                // Without this the rename can reach the disk before the data, and a power cut leaves an empty file.
                ((FileChannel) channel).force(true);
            }
            PosixFileAttributeView tempView = view(temp);
            tempView.setPermissions(mode);
            inheritOwner(tempView, ownerSource);
            // renameat: replaces whatever is at the name now (a link swapped in meanwhile: the link, not its target).
            handle.move(Path.of(temp), handle, Path.of(name));
            syncQuietly();
        } finally {
            deleteQuietly(temp);
        }
    }

    /** Makes a rename durable. Best effort: the content is safe already; a crash could only lose the rename. */
    private void syncQuietly() {
        try (SeekableByteChannel self = handle.newByteChannel(Path.of("."), Set.of(StandardOpenOption.READ))) {
            ((FileChannel) self).force(true);
        } catch (IOException | RuntimeException ignored) {
            // not every file system lets a directory be synced
        }
    }

    /** A name no one uses, recognisable as a leftover of a crash by its suffix. */
    private static String tempName(String name) {
        String base = name.length() > 100 ? name.substring(0, 100) : name;
        return "." + base + "." + Long.toHexString(ThreadLocalRandom.current().nextLong()) + AtomicFiles.TEMP_SUFFIX;
    }

    /**
     * Goes down through {@code names} from this directory, one held handle at a time, never following a link, and
     * returns the last directory's handle. This handle is closed, on failure too. With {@code create}, a missing
     * directory on the way is made first (like {@code mkdir -p}), and given {@code madeWith} when that is not null.
     */
    public WorkspaceDir descend(List<String> names, boolean create, Set<PosixFilePermission> madeWith)
            throws IOException {
        WorkspaceDir current = this;
        try {
            for (String name : names) {
                if (create && current.stat(name) == null) {
                    try {
                        current.createDirectory(name);
                        if (madeWith != null) {
                            current.setPermissions(name, madeWith);
                        }
                    } catch (FileAlreadyExistsException madeMeanwhile) {
                        // opened below, as whatever it is now
                    }
                }
                WorkspaceDir next = current.openDirectory(name);
                current.close();
                current = next;
            }
            return current;
        } catch (IOException | RuntimeException e) {
            current.close();
            throw e;
        }
    }

    /**
     * Creates a subdirectory owned like this directory (when the worker is root). {@code mkdir} does not follow a
     * link at the name: something already there, a link included, is {@link FileAlreadyExistsException}.
     */
    public void createDirectory(String name) throws IOException {
        checked(name);
        viaProc(name, path -> Files.createDirectory(path));
        PosixFileAttributes made = stat(name);
        if (made != null && made.isDirectory()) {
            inheritOwner(view(name), self());
        }
    }

    /**
     * Creates a symbolic link (the link only: nothing is written where it points), owned like this directory; with
     * {@code replace} it takes the place of a file or link already at the name, atomically.
     */
    public void createSymbolicLink(String name, String target, boolean replace) throws IOException {
        checked(name);
        if (!replace) {
            createSymbolicLink(name, target);
            return;
        }
        String temp = tempName(name);
        try {
            createSymbolicLink(temp, target);
            handle.move(Path.of(temp), handle, Path.of(name));
        } finally {
            deleteQuietly(temp);
        }
    }

    /** Creates a symbolic link (the link only: nothing is written where it points), owned like this directory. */
    public void createSymbolicLink(String name, String target) throws IOException {
        checked(name);
        viaProc(name, path -> Files.createSymbolicLink(path, Path.of(target)));
        if (AtomicFiles.workerIsRoot()) {
            PosixFileAttributes owner = self();
            viaProc(name, path -> {
                // lchown: the link itself, never what it points to
                PosixFileAttributeView link = Files.getFileAttributeView(path, PosixFileAttributeView.class,
                        NOFOLLOW);
                link.setOwner(owner.owner());
                link.setGroup(owner.group());
                return null;
            });
        }
    }

    /** What a symbolic link of this directory points to, as written in the link. */
    public String readSymbolicLink(String name) throws IOException {
        checked(name);
        return viaProc(name, path -> Files.readSymbolicLink(path).toString());
    }

    /** Removes a file, a link (not what it points to) or an empty directory. */
    public void delete(String name) throws IOException {
        PosixFileAttributes attributes = stat(name);
        if (attributes == null) {
            throw new NoSuchFileException(pathOf(name));
        }
        if (attributes.isDirectory()) {
            handle.deleteDirectory(Path.of(name));
        } else {
            handle.deleteFile(Path.of(name));
        }
    }

    /** Removes an entry and, for a directory, everything in it, through handles all the way down. */
    public void deleteTree(String name) throws IOException {
        PosixFileAttributes attributes = stat(name);
        if (attributes == null) {
            return;
        }
        if (attributes.isDirectory()) {
            try (WorkspaceDir dir = openDirectory(name)) {
                for (String child : dir.names()) {
                    dir.deleteTree(child);
                }
            } catch (SymbolicLinkException | NotDirectoryException swapped) {
                // became a link or a file since the stat: removed below as such
            }
        }
        try {
            delete(name);
        } catch (NoSuchFileException gone) {
            // removed meanwhile
        }
    }

    /**
     * Removes {@code name} in a directory no sandbox can change (a user's directory: a whole session's workspace)
     * with everything under it, through handles.
     */
    public static void deleteTree(Path trustedParent, String name) throws IOException {
        try (WorkspaceDir parent = openTrusted(trustedParent, "")) {
            parent.deleteTree(name);
        }
    }

    /** Renames an entry of this directory into {@code target} ({@code renameat}: links are moved, not followed). */
    public void move(String name, WorkspaceDir target, String targetName) throws IOException {
        handle.move(Path.of(checked(name)), target.handle, Path.of(checked(targetName)));
    }

    private void deleteQuietly(String name) {
        try {
            handle.deleteFile(Path.of(name));
        } catch (IOException gone) {
            // renamed into place, or never made
        }
    }

    /**
     * When the worker runs as root, what it makes takes the owner of {@code from} (the file it replaces, or the
     * directory it is made in): the sandbox runs as a non-root user who owns the workspace, and a root-owned file
     * there could be read but not changed in place by the agent's own commands.
     */
    private static void inheritOwner(PosixFileAttributeView view, PosixFileAttributes from) throws IOException {
        if (!AtomicFiles.workerIsRoot()) {
            return;
        }
        view.setOwner(from.owner());
        view.setGroup(from.group());
    }

    private void refuseLinkOrKind(String name, PosixFileAttributes attributes, boolean directory)
            throws IOException {
        if (attributes.isSymbolicLink()) {
            throw new SymbolicLinkException(pathOf(name));
        }
        if (directory && !attributes.isDirectory()) {
            throw new NotDirectoryException(pathOf(name));
        }
        if (!directory && attributes.isDirectory()) {
            throw new WrongKindException(pathOf(name), "is a directory");
        }
        if (!directory && !attributes.isRegularFile()) {
            // A FIFO or device would block the read forever and hold a worker slot with it.
            throw new WrongKindException(pathOf(name), "not a regular file");
        }
    }

    /**
     * An open that failed. A link there (ELOOP with O_NOFOLLOW, which the JDK reports as a plain
     * {@link IOException}, or a link found there now) is said to be one; the rest names the workspace path.
     */
    private IOException swappedMeanwhile(String name, IOException e) throws IOException {
        if (e instanceof NoSuchFileException || e instanceof NotDirectoryException) {
            return e;
        }
        PosixFileAttributes now = stat(name);
        if (e.getClass() == IOException.class || (now != null && now.isSymbolicLink())) {
            return new SymbolicLinkException(pathOf(name));
        }
        return new FileSystemException(pathOf(name), null, e instanceof FileSystemException f ? f.getReason()
                : e.getMessage());
    }

    /** A single name of this directory; anything that could name another place is a bug of the caller. */
    private static String checked(String name) {
        if (name == null || name.isEmpty() || name.equals(".") || name.equals("..") || name.indexOf('/') >= 0
                || name.indexOf('\0') >= 0) {
            throw new IllegalArgumentException("not a single file name: " + name);
        }
        return name;
    }

    private <T> T viaProc(String name, DescriptorPath.Operation<T> operation) throws IOException {
        return descriptor.run(name, operation);
    }

    @Override
    public void close() throws IOException {
        handle.close();
    }
}
