package dev.agentbus.sandbox.workspace;

import java.io.IOException;
import java.nio.channels.Channels;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.NotDirectoryException;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Copies of files taken just before a tool changes or deletes them, kept <b>outside</b> the workspace so the agent
 * can neither read nor tamper with them: a workspace {@code <root>/<user>/<session>} keeps its backups in
 * {@code <root>/<user>/.backups/<session>/} (a name that starts with a dot can never be a session id, so it cannot
 * collide with a workspace). A session-scope sandbox mounts only the workspace, so nothing inside it can reach them;
 * a user-scope container sees its user's directory, so backups are written through directory handles too.
 *
 * <p>Each backup is a directory named by time and a random suffix ({@code 20250602T091403.512Z-3f9a}) that holds
 * the saved files at their workspace-relative paths. The newest {@code kept} backups of a session are kept.
 */
public final class Backups {
    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss.SSS'Z'")
            .withZone(ZoneOffset.UTC);

    private final Path dir;
    private final int kept;
    private final long maxBytes;
    private final Clock clock;

    /**
     * @param workspace the real path of the workspace root
     * @param kept      how many backups to keep
     * @param maxBytes  the most one backup may hold
     */
    public Backups(Path workspace, int kept, long maxBytes, Clock clock) {
        this.dir = locationFor(workspace);
        this.kept = kept;
        this.maxBytes = maxBytes;
        this.clock = clock;
    }

    /** Where the backups of this workspace live. */
    public static Path locationFor(Path workspace) {
        Path parent = workspace.toAbsolutePath().getParent();
        return parent.resolve(".backups").resolve(workspace.getFileName().toString());
    }

    public Path dir() {
        return dir;
    }

    /** A backup that would be larger than allowed; nothing was changed. */
    public static final class TooLargeException extends Exception {
        TooLargeException(String message) {
            super(message);
        }
    }

    /**
     * Saves an entry of the workspace (a file, or a directory with everything under it; links are saved as links)
     * and returns the backup's id, e.g. {@code 20250602T091403.512Z-3f9a/src/Main.java}. The workspace is read
     * through handles only ({@link WorkspaceDir}): a directory swapped for a link meanwhile is never followed.
     */
    public String save(WorkspacePaths.Target target) throws IOException, TooLargeException {
        long size = sizeOf(target.parent(), target.name());
        if (size > maxBytes) {
            throw new TooLargeException(target.shown() + " holds " + size + " bytes, more than the "
                    + maxBytes + " bytes a backup may hold");
        }
        String name = STAMP.format(clock.instant()) + "-" + String.format("%04x",
                ThreadLocalRandom.current().nextInt(0x10000));
        // Written through handles too: in the user scope the user's container sees .backups and could swap a
        // directory of it for a link to a host directory.
        try (WorkspaceDir backups = open(true)) {
            backups.createDirectory(name);
            List<WorkspaceDir> opened = new ArrayList<>();
            try {
                WorkspaceDir into = backups.openDirectory(name);
                opened.add(into);
                String[] names = target.shown().split("/");
                for (int i = 0; i < names.length - 1; i++) {
                    into.createDirectory(names[i]);
                    into = into.openDirectory(names[i]);
                    opened.add(into);
                }
                copyOut(target.parent(), target.name(), into, names[names.length - 1]);
            } finally {
                for (WorkspaceDir d : opened) {
                    d.close();
                }
            }
            prune(backups);
        }
        return name + "/" + target.shown();
    }

    /**
     * This workspace's backup directory, held open: the user's directory by path (no sandbox can replace it), then
     * {@code .backups} and the session's directory through handles; made (owner-only) when {@code create}.
     */
    private WorkspaceDir open(boolean create) throws IOException {
        return WorkspaceDir.openTrusted(dir.getParent().getParent(), "").descend(
                List.of(dir.getParent().getFileName().toString(), dir.getFileName().toString()), create,
                PosixFilePermissions.fromString("rwx------"));
    }

    /** The backups of this workspace, oldest first. */
    public List<Path> list() throws IOException {
        try (WorkspaceDir backups = open(false)) {
            return backups.names().stream().sorted().map(dir::resolve).toList();
        } catch (java.nio.file.NoSuchFileException none) {
            return List.of();
        }
    }

    private void prune(WorkspaceDir backups) throws IOException {
        List<String> all = backups.names().stream().sorted().toList();
        for (String old : all.subList(0, Math.max(0, all.size() - kept))) {
            backups.deleteTree(old);
        }
    }

    private static long sizeOf(WorkspaceDir parent, String name) throws IOException {
        PosixFileAttributes attributes = parent.stat(name);
        if (attributes == null) {
            return 0;
        }
        if (!attributes.isDirectory()) {
            return attributes.size();
        }
        long total = 0;
        try (WorkspaceDir dir = parent.openDirectory(name)) {
            for (String child : dir.names()) {
                total += sizeOf(dir, child);
            }
        } catch (SymbolicLinkException | NotDirectoryException swapped) {
            // a link or a file now: counted as nothing, copied as what it is
        }
        return total;
    }

    /** Copies an entry of the workspace into the backup, both through handles. */
    private static void copyOut(WorkspaceDir from, String name, WorkspaceDir to, String toName) throws IOException {
        PosixFileAttributes attributes = from.stat(name);
        if (attributes == null) {
            return;
        }
        if (attributes.isSymbolicLink()) {
            to.createSymbolicLink(toName, from.readSymbolicLink(name));
        } else if (attributes.isDirectory()) {
            to.createDirectory(toName);
            try (WorkspaceDir source = from.openDirectory(name); WorkspaceDir copy = to.openDirectory(toName)) {
                for (String child : source.names()) {
                    copyOut(source, child, copy, child);
                }
            } catch (SymbolicLinkException | NotDirectoryException swapped) {
                // replaced while we copied: what it became is not saved
            }
            to.setPermissions(toName, attributes.permissions());
        } else if (attributes.isRegularFile()) {
            try (SeekableByteChannel in = from.openForReading(name)) {
                to.writeAtomically(toName, out -> Channels.newInputStream(in).transferTo(out),
                        attributes.permissions());
            } catch (SymbolicLinkException | WrongKindException swapped) {
                // replaced while we copied: not saved
            }
        }
        // sockets, fifos and devices are not saved
    }

    /**
     * Deletes a file or a whole tree of the worker's own (a checkpoint repository) without following links out of
     * it. Never for a workspace, which a sandbox can change meanwhile: that is {@link WorkspaceDir#deleteTree}.
     */
    public static void deleteTree(Path target) throws IOException {
        if (!Files.isDirectory(target, LinkOption.NOFOLLOW_LINKS)) {
            Files.deleteIfExists(target);
            return;
        }
        Files.walkFileTree(target, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                Files.delete(file);
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path d, IOException e) throws IOException {
                if (e != null) {
                    throw e;
                }
                Files.delete(d);
                return FileVisitResult.CONTINUE;
            }
        });
    }
}
