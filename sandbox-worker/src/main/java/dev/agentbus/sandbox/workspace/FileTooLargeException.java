package dev.agentbus.sandbox.workspace;

import java.nio.file.FileSystemException;

/** A workspace file larger than the caller takes; {@link #getFile()} is its workspace-relative path. */
public final class FileTooLargeException extends FileSystemException {
    private final long size;

    FileTooLargeException(String file, long size, long max) {
        super(file, null, file + " is " + size + " bytes, the limit is " + max);
        this.size = size;
    }

    /** The file's size when it was opened. */
    public long size() {
        return size;
    }
}
