package dev.agentbus.eventbus;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

/**
 * Where a service keeps files on disk: {@code agentbus.data-dir} ({@code AGENTBUS_DATA_DIR}), else ~/.agentbus.
 *
 * <p>Everything under it is private to the account that runs Agentbus: Kafka's segments hold every conversation,
 * the workspaces every file, and the secrets sit beside them. Java cannot set a umask, so what Kafka, PostgreSQL or
 * git write below is as readable as their defaults make it (0644 in 0755 directories); {@link #makePrivate} closes
 * the directories at the top (0700), which no other account can then pass, and the files Agentbus itself writes
 * there are made owner-only ({@link #writePrivateFile}).
 */
public final class DataDir {
    private static final Set<PosixFilePermission> OWNER_ONLY_DIRECTORY = PosixFilePermissions.fromString("rwx------");
    private static final Set<PosixFilePermission> OWNER_ONLY_FILE = PosixFilePermissions.fromString("rw-------");

    private DataDir() {
    }

    public static Path of(String configured) {
        return configured == null || configured.isBlank()
                ? Path.of(System.getProperty("user.home"), ".agentbus") : Path.of(configured);
    }

    /**
     * Creates {@code dir} (and missing parents) as {@code rwx------}, or closes an existing one to everyone but its
     * owner: a data directory made by an earlier version was 0755. Its contents are not walked: no other account
     * can pass a 0700 directory, whatever the modes below it.
     */
    public static Path makePrivate(Path dir) throws IOException {
        if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
            Path parent = dir.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            try {
                Files.createDirectory(dir, PosixFilePermissions.asFileAttribute(OWNER_ONLY_DIRECTORY));
            } catch (FileAlreadyExistsException e) {
                // Made meanwhile by another service of the same JVM; tightened below like any existing one.
            }
        }
        if (posix(dir) && !Files.getPosixFilePermissions(dir).equals(OWNER_ONLY_DIRECTORY)) {
            Files.setPosixFilePermissions(dir, OWNER_ONLY_DIRECTORY);
        }
        return dir;
    }

    /**
     * Writes a small secret (a password, a key) as a new {@code rw-------} file: created with that mode, so it is
     * never readable by others, not even for a moment.
     */
    public static void writePrivateFile(Path file, byte[] content) throws IOException {
        Files.deleteIfExists(file);
        if (posix(file.toAbsolutePath().getParent())) {
            Files.createFile(file, PosixFilePermissions.asFileAttribute(OWNER_ONLY_FILE));
        } else {
            Files.createFile(file);
        }
        Files.write(file, content);
    }

    private static boolean posix(Path path) {
        return Files.getFileAttributeView(path, PosixFileAttributeView.class) != null;
    }
}
