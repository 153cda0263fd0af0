package dev.agentbus.sandbox.tools;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.FileVisitOption;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;

/**
 * Lists the files under a directory of the workspace for glob and grep.
 *
 * <p>Links are never followed: a link inside the workspace may point anywhere on the host ({@code ln -s / root}),
 * and following it would let glob list and grep read host files the path guard would refuse. {@code .git}
 * directories below the start are skipped (their objects are noise for a search; ask for {@code .git} explicitly
 * to look inside). The walk stops after {@link #MAX_VISITED} files so a huge tree cannot stall the worker.
 */
final class FileWalk {
    static final int MAX_VISITED = 100_000;

    /** The files found, sorted by path, and whether the walk stopped early. */
    record Listing(List<Path> files, boolean incomplete) {
    }

    private FileWalk() {
    }

    /**
     * @param includeLinks list symbolic links (by name only, for glob); grep passes false so it reads only real
     *                     files that lie inside the workspace
     */
    static Listing under(Path start, boolean includeLinks) throws IOException {
        List<Path> files = new ArrayList<>();
        boolean[] incomplete = {false};
        Files.walkFileTree(start, EnumSet.noneOf(FileVisitOption.class), Integer.MAX_VALUE,
                new SimpleFileVisitor<>() {
                    @Override
                    public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
                        return !dir.equals(start) && dir.getFileName().toString().equals(".git")
                                ? FileVisitResult.SKIP_SUBTREE
                                : FileVisitResult.CONTINUE;
                    }

                    @Override
                    public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
                        if (attrs.isRegularFile() || (includeLinks && attrs.isSymbolicLink())) {
                            files.add(file);
                        }
                        if (files.size() >= MAX_VISITED) {
                            incomplete[0] = true;
                            return FileVisitResult.TERMINATE;
                        }
                        return FileVisitResult.CONTINUE;
                    }

                    @Override
                    public FileVisitResult visitFileFailed(Path file, IOException e) {
                        return FileVisitResult.CONTINUE; // unreadable entry: skip it, report the rest
                    }
                });
        files.sort(Comparator.comparing(Path::toString));
        return new Listing(files, incomplete[0]);
    }
}
