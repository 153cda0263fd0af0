package dev.agentbus.sandbox.tools;

import dev.agentbus.sandbox.workspace.Backups;
import dev.agentbus.sandbox.workspace.FileTooLargeException;
import dev.agentbus.sandbox.workspace.WorkspaceDir;
import dev.agentbus.sandbox.workspace.WorkspacePaths;

import java.io.IOException;
import java.nio.file.attribute.PosixFileAttributes;
import java.time.Clock;

/**
 * What every tool that changes or removes an existing file does first: save a backup outside the workspace (see
 * {@link Backups}), and read the old text for the diff it returns. Both through the entry's parent handle.
 */
final class FileChanges {
    private FileChanges() {
    }

    /**
     * Backs up {@code target} if it exists and returns a note for the tool's output naming the backup; "" when
     * there was nothing to save. A backup that would be too large is refused, and so is the change.
     */
    static String backUp(SandboxSettings settings, WorkspacePaths workspace, WorkspacePaths.Target target)
            throws IOException, ToolFailure {
        if (target.parent().stat(target.name()) == null) {
            return "";
        }
        try {
            String id = new Backups(workspace.root(), settings.backupsKept(), settings.backupMaxBytes(),
                    Clock.systemUTC()).save(target);
            return " [backup: " + id + "]";
        } catch (Backups.TooLargeException e) {
            throw new ToolFailure("no backup can be taken, so nothing was changed: " + e.getMessage());
        }
    }

    /** The file's content as text for a diff, or null when it is missing, not a file, too large, binary or not UTF-8. */
    static String textOrNull(WorkspacePaths.Target file, long maxBytes) throws IOException {
        PosixFileAttributes attributes = file.parent().stat(file.name());
        if (attributes == null || !attributes.isRegularFile()) {
            return null;
        }
        try {
            return textOrNull(file.parent().readAll(file.name(), maxBytes), maxBytes);
        } catch (FileTooLargeException e) {
            return null;
        }
    }

    /** The bytes as text for a diff, or null when too large, binary or not UTF-8. */
    static String textOrNull(byte[] bytes, long maxBytes) {
        if (bytes.length > maxBytes || TextFiles.looksBinary(bytes)) {
            return null;
        }
        try {
            return TextFiles.decodeStrict(bytes, "");
        } catch (ToolFailure notUtf8) {
            return null;
        }
    }

    /** A diff, or null when it would be empty. */
    static String diffOrNull(String before, String after, String shown) {
        String text = UnifiedDiff.of(before, after, shown).text();
        return text.isEmpty() ? null : text;
    }
}
