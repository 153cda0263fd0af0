package dev.agentbus.sandbox.workspace;

import java.nio.file.FileSystemException;

/**
 * A directory where a file was expected, or a FIFO, socket or device where a regular file was (or the reverse);
 * {@link #getFile()} is the workspace-relative path.
 */
public final class WrongKindException extends FileSystemException {
    WrongKindException(String file, String reason) {
        super(file, null, reason);
    }
}
