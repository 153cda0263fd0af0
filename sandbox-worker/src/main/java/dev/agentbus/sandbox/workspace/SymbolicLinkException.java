package dev.agentbus.sandbox.workspace;

import java.nio.file.FileSystemException;

/**
 * A workspace path met a symbolic link where the worker would have had to follow it. The worker never follows a link
 * in a workspace, wherever it points: a program in the sandbox can turn any path into a link at any moment, so a link
 * checked to point inside could point at the host an instant later (issue 28). The file tools refuse such a path with
 * this message; the shell, which runs inside the sandbox, follows links as usual.
 *
 * <p>{@link #getFile()} is the workspace-relative path of the link, never a host path.
 */
public final class SymbolicLinkException extends FileSystemException {
    public SymbolicLinkException(String workspacePath) {
        super(workspacePath);
    }

    @Override
    public String getMessage() {
        return "path goes through a symbolic link: " + getFile()
                + " (the file tools never follow links; use the shell for what a link points to)";
    }
}
