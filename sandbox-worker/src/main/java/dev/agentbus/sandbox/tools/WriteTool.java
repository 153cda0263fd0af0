package dev.agentbus.sandbox.tools;

import dev.agentbus.sandbox.workspace.PathRejectedException;
import dev.agentbus.sandbox.workspace.SymbolicLinkException;
import dev.agentbus.sandbox.workspace.WorkspacePaths;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.attribute.PosixFileAttributes;

/**
 * {@code write {path, content}}: creates or replaces a file (UTF-8), creating parent directories, atomically.
 *
 * <p>Overwriting first saves the old file outside the workspace ({@link FileChanges#backUp}).
 *
 * <p>The outcome carries a diff against the previous content (or against nothing for a new file) so the user sees
 * what the agent changed; it is left out when the old file was not text, since a diff of it would be meaningless.
 */
final class WriteTool implements Tool {
    private final SandboxSettings settings;

    WriteTool(SandboxSettings settings) {
        this.settings = settings;
    }

    @Override
    public ToolOutcome run(Args args, ToolContext ctx)
            throws ToolFailure, PathRejectedException, IOException {
        WorkspacePaths workspace = ctx.workspace();
        String given = args.requiredString("path");
        String content = args.requiredString("content");
        String shown = workspace.display(workspace.resolve(given));
        if (workspace.names(given).isEmpty()) {
            throw new ToolFailure("is a directory, cannot write a file there: " + shown);
        }
        byte[] bytes = content.getBytes(StandardCharsets.UTF_8);
        if (bytes.length > settings.maxFileBytes()) {
            throw new ToolFailure("content is " + bytes.length + " bytes, more than the file limit of "
                    + settings.maxFileBytes() + " bytes");
        }
        try (WorkspacePaths.Target file = workspace.target(given, true)) {
            PosixFileAttributes old = file.parent().stat(file.name());
            if (old != null && old.isSymbolicLink()) {
                throw new SymbolicLinkException(shown);
            }
            if (old != null && old.isDirectory()) {
                throw new ToolFailure("is a directory, cannot write a file there: " + shown);
            }
            if (old != null && !old.isRegularFile()) {
                throw new ToolFailure("not a regular file, cannot write over it: " + shown);
            }
            boolean existed = old != null;
            String before = existed ? FileChanges.textOrNull(file, settings.maxFileBytes()) : null;
            String backup = existed ? FileChanges.backUp(settings, workspace, file) : "";
            file.parent().writeAtomically(file.name(), bytes);
            String diff = existed && before == null ? null : UnifiedDiff.of(before, content, shown).text();
            if (diff != null && diff.isEmpty()) {
                diff = null; // rewritten with the same content
            }
            int lines = TextFiles.lines(content).size();
            String summary = (existed ? "overwrote " : "created ") + shown + " (" + bytes.length + " bytes, "
                    + lines + (lines == 1 ? " line)" : " lines)") + backup;
            return new ToolOutcome(true, summary, null, diff, false).changing(file.path());
        }
    }
}
