package dev.agentbus.sandbox.workspace;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.LinkOption;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;

/**
 * The one place where a path chosen by the model becomes a real path on the host, inside one session's workspace.
 *
 * <p>Every file tool goes through {@link #resolve(String)}, so the rules live here only. Refused:
 * <ul>
 *   <li>NUL bytes, because the OS would cut the name there and act on a different file than the one checked;</li>
 *   <li>absolute paths, because the model must not be able to name host files at all;</li>
 *   <li>{@code ..} that climbs above the workspace root (checked after lexical normalisation);</li>
 *   <li>a symbolic link anywhere along the path whose target lies outside the workspace, because a link made
 *       inside the workspace (for example by a shell command: {@code ln -s /etc e}) is otherwise a door out;</li>
 *   <li>a dangling symbolic link, because writing through it would create a file wherever it points.</li>
 * </ul>
 * Links that stay inside the workspace are allowed and resolved: the returned path is the real target, so the
 * caller acts on exactly the file that was checked.
 *
 * <p>Limitation: this is a check-then-act guard. A process that changes the workspace between the check and the
 * use (swapping a directory for a link) could race it. Tool calls of one session run one at a time and shell
 * commands run inside the sandbox, where the workspace is all there is, so no such process exists while a file
 * tool runs.
 */
public final class WorkspacePaths {
    private final Path root;

    private WorkspacePaths(Path realRoot) {
        this.root = realRoot;
    }

    /**
     * Opens an existing workspace directory. The root itself may be reached through links (e.g. a mounted volume);
     * it is resolved once here so that every later containment check compares real paths.
     */
    public static WorkspacePaths open(Path workspaceRoot) throws IOException {
        Path real = workspaceRoot.toRealPath();
        if (!Files.isDirectory(real)) {
            throw new NotDirectoryException(workspaceRoot.toString());
        }
        return new WorkspacePaths(real);
    }

    /** The real path of the workspace root. */
    public Path root() {
        return root;
    }

    /**
     * Turns a workspace-relative path into a real path inside the workspace. The path need not exist: missing
     * trailing components are appended as given (after the existing part is resolved), so it works for files
     * about to be written. An empty path or {@code "."} is the root.
     */
    public Path resolve(String userPath) throws PathRejectedException {
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
        return followLinksInside(root.relativize(lexical), userPath);
    }

    /**
     * Walks the path one component at a time from the root. Each existing component that is a link is resolved
     * with {@link Path#toRealPath} (which follows whole chains) and must land inside the root; the walk then goes
     * on from the link's real target. Once a component does not exist, nothing below it can be a link.
     */
    private Path followLinksInside(Path relative, String userPath) throws PathRejectedException {
        Path current = root;
        if (relative.toString().isEmpty()) {
            return current;
        }
        boolean exists = true;
        for (Path part : relative) {
            Path next = current.resolve(part);
            if (exists && Files.isSymbolicLink(next)) {
                Path target;
                try {
                    target = next.toRealPath();
                } catch (IOException e) {
                    throw new PathRejectedException("path goes through a dangling symbolic link: "
                            + display(next) + " (in " + userPath + ")");
                }
                if (!target.startsWith(root)) {
                    throw new PathRejectedException("path escapes the workspace through a symbolic link: "
                            + display(next) + " (in " + userPath + ")");
                }
                next = target;
            } else if (exists && !Files.exists(next, LinkOption.NOFOLLOW_LINKS)) {
                exists = false;
            }
            current = next;
        }
        return current;
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
