package dev.agentbus.sandbox.workspace;

import java.io.IOException;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The one place where a path chosen by the model (or a person) is checked and opened, inside one session's workspace.
 *
 * <p>The lexical rules ({@link #resolve(String)}): refused are
 * <ul>
 *   <li>NUL bytes, because the OS would cut the name there and act on a different file than the one checked;</li>
 *   <li>absolute paths, because the model must not be able to name host files at all;</li>
 *   <li>{@code ..} that climbs above the workspace root (checked after lexical normalisation).</li>
 * </ul>
 *
 * <p>Then the path is opened one component at a time from the workspace root, each through the handle of the
 * directory above it and never following a link ({@link WorkspaceDir}); the caller acts on the entry through its
 * parent's handle ({@link Target}) and never opens the path again by name. A link anywhere on the way, wherever it
 * points, is refused with {@link SymbolicLinkException} ("path goes through a symbolic link"): a program in the
 * sandbox can swap any path for a link at any moment, so a link that points inside when it is checked may point at
 * the host an instant later (issue 28, where that let any user read and write host files as root). Links made in
 * the sandbox still work there (the shell follows them); the file tools list them, delete them and checkpoint them,
 * but never follow them.
 */
public final class WorkspacePaths {
    private final Path root;

    private WorkspacePaths(Path root) {
        this.root = root;
    }

    /**
     * A workspace directory. Its parent is resolved once here (it may be reached through links, e.g. a mounted
     * volume; no sandbox can change it), the workspace directory itself is never followed if it is a link.
     */
    public static WorkspacePaths open(Path workspaceRoot) throws IOException {
        Path absolute = workspaceRoot.toAbsolutePath().normalize();
        Path root = absolute.getParent().toRealPath().resolve(absolute.getFileName().toString());
        try (WorkspaceDir opened = WorkspaceDir.openRoot(root)) {
            return new WorkspacePaths(root);
        }
    }

    /** The host path of the workspace root (its parent's links resolved, the root itself not followed). */
    public Path root() {
        return root;
    }

    /**
     * The host path a workspace-relative path names, after the lexical checks, without looking at the disk: for
     * messages and for the paths a tool reports it changed. Never open it by name; use {@link #target} or
     * {@link #directory}.
     */
    public Path resolve(String userPath) throws PathRejectedException {
        List<String> names = names(userPath);
        return names.isEmpty() ? root : root.resolve(String.join("/", names));
    }

    /** The components of a workspace-relative path after the lexical checks; empty for the root. */
    public List<String> names(String userPath) throws PathRejectedException {
        if (userPath == null) {
            throw new PathRejectedException("path is missing");
        }
        if (userPath.indexOf('\0') >= 0) {
            throw new PathRejectedException("path must not contain NUL bytes");
        }
        Path given;
        try {
            given = Path.of(userPath);
        } catch (InvalidPathException e) {
            throw new PathRejectedException("invalid path: " + userPath);
        }
        if (given.isAbsolute()) {
            throw new PathRejectedException("absolute paths are not allowed: " + userPath
                    + " (give a path relative to the workspace root)");
        }
        Path lexical = root.resolve(given).normalize();
        if (!lexical.startsWith(root)) {
            throw new PathRejectedException("path escapes the workspace: " + userPath);
        }
        List<String> names = new ArrayList<>();
        for (Path name : root.relativize(lexical)) {
            if (!name.toString().isEmpty()) {
                names.add(name.toString());
            }
        }
        return List.copyOf(names);
    }

    /** The workspace root, held open. */
    public WorkspaceDir openRoot() throws IOException {
        return WorkspaceDir.openRoot(root);
    }

    /** The directory a path names, held open; a link or a file on the way is refused. */
    public WorkspaceDir directory(String userPath) throws PathRejectedException, IOException {
        return walk(names(userPath), names(userPath).size(), false);
    }

    /**
     * An entry of the workspace: its parent directory held open and its name, which need not exist. With
     * {@code createParents} missing directories on the way are made (like {@code mkdir -p}).
     *
     * @throws PathRejectedException for the root itself, which is no entry of a directory
     */
    public Target target(String userPath, boolean createParents) throws PathRejectedException, IOException {
        List<String> names = names(userPath);
        if (names.isEmpty()) {
            throw new PathRejectedException("the workspace root itself cannot be used here: " + userPath);
        }
        WorkspaceDir parent = walk(names, names.size() - 1, createParents);
        String name = names.getLast();
        return new Target(parent, name, parent.pathOf(name), root.resolve(String.join("/", names)));
    }

    private WorkspaceDir walk(List<String> names, int count, boolean create) throws IOException {
        return openRoot().descend(names.subList(0, count), create, null);
    }

    /**
     * One entry of the workspace, reached through its parent's handle: act on it only through {@code parent} and
     * {@code name}. {@code shown} is its workspace-relative path for messages, {@code path} its host path for the
     * list of changed paths (never to be opened).
     */
    public record Target(WorkspaceDir parent, String name, String shown, Path path) implements AutoCloseable {
        @Override
        public void close() throws IOException {
            parent.close();
        }
    }

    /**
     * The workspace-relative form of a path inside the workspace, for messages to the model: the host location of
     * the workspace is none of its business and would only confuse it. The root is shown as {@code "."}.
     */
    public String display(Path inside) {
        Path abs = inside.toAbsolutePath().normalize();
        if (!abs.startsWith(root)) {
            return inside.getFileName() == null ? "?" : inside.getFileName().toString();
        }
        String rel = root.relativize(abs).toString();
        return rel.isEmpty() ? "." : rel;
    }

    /** Replaces the host root in a message (typically from an {@link IOException}) with nothing. */
    public String scrub(String message) {
        if (message == null) {
            return "";
        }
        return message.replace(root + "/", "").replace(root.toString(), ".");
    }
}
