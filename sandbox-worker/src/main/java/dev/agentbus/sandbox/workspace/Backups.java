package dev.agentbus.sandbox.workspace;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Clock;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.Stream;

/**
 * Copies of files taken just before a tool changes or deletes them, kept <b>outside</b> the workspace so the agent
 * can neither read nor tamper with them: a workspace {@code <root>/<user>/<session>} keeps its backups in
 * {@code <root>/<user>/.backups/<session>/} (a name that starts with a dot can never be a session id, so it cannot
 * collide with a workspace). The sandbox mounts only the workspace, so nothing inside it can reach them.
 *
 * <p>Each backup is a directory named by time and a random suffix ({@code 20250602T091403.512Z-3f9a}) that holds
 * the saved files at their workspace-relative paths. The newest {@code kept} backups of a session are kept.
 */
public final class Backups {
    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss.SSS'Z'")
            .withZone(ZoneOffset.UTC);

    private final Path workspace;
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
        this.workspace = workspace;
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
     * Saves {@code target} (a file, or a directory with everything under it; links are saved as links) and returns
     * the backup's id, e.g. {@code 20250602T091403.512Z-3f9a/src/Main.java}.
     */
    public String save(Path target) throws IOException, TooLargeException {
        long size = sizeOf(target);
        if (size > maxBytes) {
            throw new TooLargeException(workspaceRelative(target) + " holds " + size + " bytes, more than the "
                    + maxBytes + " bytes a backup may hold");
        }
        String name = STAMP.format(clock.instant()) + "-" + String.format("%04x",
                ThreadLocalRandom.current().nextInt(0x10000));
        Path backup = dir.resolve(name);
        String relative = workspaceRelative(target);
        Path copy = backup.resolve(relative);
        Files.createDirectories(copy.getParent());
        copyTree(target, copy);
        prune();
        return name + "/" + relative;
    }

    /** The backups of this workspace, oldest first. */
    public List<Path> list() throws IOException {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> entries = Files.list(dir)) {
            return entries.sorted(Comparator.comparing(p -> p.getFileName().toString())).toList();
        }
    }

    private void prune() throws IOException {
        List<Path> all = list();
        for (Path old : all.subList(0, Math.max(0, all.size() - kept))) {
            deleteTree(old);
        }
    }

    private String workspaceRelative(Path target) {
        return workspace.relativize(target.toAbsolutePath().normalize()).toString();
    }

    private static long sizeOf(Path target) throws IOException {
        if (!Files.isDirectory(target, LinkOption.NOFOLLOW_LINKS)) {
            return Files.readAttributes(target, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS).size();
        }
        long[] total = {0};
        Files.walkFileTree(target, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
                total[0] += attrs.size();
                return FileVisitResult.CONTINUE;
            }
        });
        return total[0];
    }

    private static void copyTree(Path from, Path to) throws IOException {
        if (!Files.isDirectory(from, LinkOption.NOFOLLOW_LINKS)) {
            Files.copy(from, to, LinkOption.NOFOLLOW_LINKS, StandardCopyOption.COPY_ATTRIBUTES);
            return;
        }
        Files.walkFileTree(from, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path d, BasicFileAttributes attrs) throws IOException {
                Files.createDirectories(to.resolve(from.relativize(d).toString()));
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                Files.copy(file, to.resolve(from.relativize(file).toString()), LinkOption.NOFOLLOW_LINKS,
                        StandardCopyOption.COPY_ATTRIBUTES);
                return FileVisitResult.CONTINUE;
            }
        });
    }

    /** Deletes a file or a whole tree without following links out of it. */
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
