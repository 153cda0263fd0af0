package dev.agentbus.sandbox.workspace;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code /proc/self/fd/<n>/<name>} for a held {@link WorkspaceDir}: how the worker makes a directory or a link, and
 * reads a link, in a directory it holds open, which Java's {@code SecureDirectoryStream} cannot do. The kernel
 * resolves {@code /proc/self/fd/<n>} to the open directory itself, not by its name, and {@code mkdir},
 * {@code symlink} and {@code readlink} do not follow their last component, so a link swapped in anywhere is never
 * followed.
 *
 * <p>Java does not tell which descriptor number a handle has, so {@code <n>} is found by matching the directory's
 * device and inode among the process's descriptors (any descriptor of that directory will do), and checked again
 * before and after each use: descriptors are only ever changed by this process, so a check that holds on both sides
 * means the operation acted in this directory.
 */
final class DescriptorPath {
    private static final Path PROC_FDS = Path.of("/proc/self/fd");

    private final WorkspaceDir dir;
    private Object key;
    private int procFd = -1;

    DescriptorPath(WorkspaceDir dir) {
        this.dir = dir;
    }

    /** What is done on {@code /proc/self/fd/<n>/<name>}. */
    interface Operation<T> {
        T on(Path path) throws IOException;
    }

    /**
     * Runs {@code operation} on {@code /proc/self/fd/<n>/<name>} for a descriptor {@code <n>} of this directory,
     * checked before and after (descriptors are only ever changed by this process, so a check that holds on both
     * sides means the operation acted in this directory).
     */
    <T> T run(String name, Operation<T> operation) throws IOException {
        for (int attempt = 0; attempt < 3; attempt++) {
            int fd = procFd();
            Path self = PROC_FDS.resolve(Integer.toString(fd));
            T result;
            try {
                result = operation.on(name == null ? self : self.resolve(name));
            } catch (FileSystemException e) {
                throw workspaceNamed(name, e);
            }
            if (isThisDirectory(fd)) {
                return result;
            }
            procFd = -1;
        }
        throw new IOException("cannot reach the directory " + (dir.relative().isEmpty() ? "." : dir.relative())
                + " through /proc/self/fd");
    }

    /** The same failure, naming the workspace path rather than the {@code /proc} one. */
    private FileSystemException workspaceNamed(String name, FileSystemException e) {
        String file = name == null ? (dir.relative().isEmpty() ? "." : dir.relative()) : dir.pathOf(name);
        return switch (e) {
            case NoSuchFileException x -> new NoSuchFileException(file);
            case FileAlreadyExistsException x -> new FileAlreadyExistsException(file);
            case NotDirectoryException x -> new NotDirectoryException(file);
            case java.nio.file.NotLinkException x -> new WrongKindException(file, "not a symbolic link");
            case java.nio.file.AccessDeniedException x -> new java.nio.file.AccessDeniedException(file);
            default -> new FileSystemException(file, null, e.getReason());
        };
    }

    private int procFd() throws IOException {
        if (procFd >= 0 && isThisDirectory(procFd)) {
            return procFd;
        }
        procFd = -1;
        List<Integer> numbers = new ArrayList<>();
        try (DirectoryStream<Path> fds = Files.newDirectoryStream(PROC_FDS)) {
            for (Path fd : fds) {
                String number = fd.getFileName().toString();
                if (!number.isEmpty() && number.chars().allMatch(Character::isDigit)) {
                    numbers.add(Integer.parseInt(number));
                }
            }
        } catch (IOException e) {
            throw new IOException("cannot list /proc/self/fd, which the worker needs to make directories and links "
                    + "without following links: " + e.getMessage(), e);
        }
        // Newest first: the kernel hands out the lowest free number, and a process's table is mostly full, so the
        // handle opened a moment ago is usually among the highest.
        numbers.sort(java.util.Comparator.reverseOrder());
        for (int number : numbers) {
            if (isThisDirectory(number)) {
                procFd = number;
                return procFd;
            }
        }
        throw new IOException("no descriptor of the directory " + dir.relative() + " in /proc/self/fd");
    }

    private boolean isThisDirectory(int fd) throws IOException {
        if (key == null) {
            key = dir.self().fileKey();
        }
        try {
            BasicFileAttributes open = Files.readAttributes(PROC_FDS.resolve(Integer.toString(fd)),
                    BasicFileAttributes.class);
            return open.isDirectory() && key.equals(open.fileKey());
        } catch (IOException closedMeanwhile) {
            return false;
        }
    }
}
