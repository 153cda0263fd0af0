package dev.agentbus.sandbox.tools;

import dev.agentbus.sandbox.workspace.SymbolicLinkException;
import dev.agentbus.sandbox.workspace.FileTooLargeException;
import dev.agentbus.sandbox.workspace.WorkspaceDir;

import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.attribute.PosixFileAttributes;
import java.util.ArrayList;
import java.util.List;

/**
 * Lists the files under a directory of the workspace for glob and grep, through directory handles
 * ({@link WorkspaceDir}).
 *
 * <p>Links are never followed: a link inside the workspace may point anywhere on the host ({@code ln -s / root}),
 * and following it would let glob list and grep read host files. {@code .git} directories below the start are
 * skipped (their objects are noise for a search; ask for {@code .git} explicitly to look inside). The walk stops
 * after {@link #MAX_VISITED} files so a huge tree cannot stall the worker.
 */
final class FileWalk {
    static final int MAX_VISITED = 100_000;

    /** The files found, as {@code /}-separated paths relative to the start, sorted, and whether the walk stopped early. */
    record Listing(List<String> files, boolean incomplete) {
    }

    private FileWalk() {
    }

    /**
     * @param includeLinks list symbolic links (by name only, for glob); grep passes false so it reads only real
     *                     files
     */
    static Listing under(WorkspaceDir start, boolean includeLinks) throws IOException {
        List<String> files = new ArrayList<>();
        boolean complete = walk(start, "", includeLinks, files);
        files.sort(String::compareTo);
        return new Listing(files, !complete);
    }

    /** @return false when the walk stopped at the limit */
    private static boolean walk(WorkspaceDir dir, String prefix, boolean includeLinks, List<String> files)
            throws IOException {
        List<String> names = new ArrayList<>(dir.names());
        names.sort(String::compareTo);
        for (String name : names) {
            PosixFileAttributes attributes = dir.stat(name);
            if (attributes == null) {
                continue; // removed meanwhile
            }
            if (attributes.isDirectory()) {
                if (name.equals(".git")) {
                    continue;
                }
                try (WorkspaceDir child = dir.openDirectory(name)) {
                    if (!walk(child, prefix + name + "/", includeLinks, files)) {
                        return false;
                    }
                } catch (SymbolicLinkException | NotDirectoryException | NoSuchFileException replacedMeanwhile) {
                    // swapped for something else while we looked: not followed
                }
            } else if (attributes.isRegularFile() || (includeLinks && attributes.isSymbolicLink())) {
                files.add(prefix + name);
                if (files.size() >= MAX_VISITED) {
                    return false;
                }
            }
        }
        return true;
    }

    /**
     * Reads a file the walk listed, reached again from {@code start} one directory at a time through handles; null
     * when it is no longer a regular file there, or larger than {@code maxBytes} (then {@code tooLarge} is run).
     */
    static byte[] read(WorkspaceDir start, String relative, long maxBytes, Runnable tooLarge) {
        String[] names = relative.split("/");
        List<WorkspaceDir> opened = new ArrayList<>();
        try {
            WorkspaceDir dir = start;
            for (int i = 0; i < names.length - 1; i++) {
                dir = dir.openDirectory(names[i]);
                opened.add(dir);
            }
            String name = names[names.length - 1];
            PosixFileAttributes attributes = dir.stat(name);
            if (attributes == null || !attributes.isRegularFile()) {
                return null; // a FIFO or device would block the read forever; a link is not followed
            }
            if (attributes.size() > maxBytes) {
                tooLarge.run();
                return null;
            }
            return dir.readAll(name, maxBytes);
        } catch (FileTooLargeException e) {
            tooLarge.run();
            return null;
        } catch (IOException unreadable) {
            return null;
        } finally {
            for (WorkspaceDir dir : opened) {
                try {
                    dir.close();
                } catch (IOException ignored) {
                    // nothing to do
                }
            }
        }
    }
}
