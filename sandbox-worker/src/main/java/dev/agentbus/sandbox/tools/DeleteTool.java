package dev.agentbus.sandbox.tools;

import dev.agentbus.sandbox.workspace.PathRejectedException;
import dev.agentbus.sandbox.workspace.WorkspaceDir;
import dev.agentbus.sandbox.workspace.WorkspacePaths;

import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.attribute.PosixFileAttributes;

/**
 * {@code delete {path, recursive?}}: removes a file, a link (not what it points to), an empty directory, or with
 * {@code recursive=true} a directory and everything in it. The workspace root itself cannot be deleted.
 *
 * <p>Everything deleted is first saved outside the workspace; a tree too large to back up is not deleted. A deleted
 * text file comes back as a diff against nothing, so the user sees what went.
 */
final class DeleteTool implements Tool {
    private final SandboxSettings settings;

    DeleteTool(SandboxSettings settings) {
        this.settings = settings;
    }

    @Override
    public ToolOutcome run(Args args, ToolContext ctx) throws ToolFailure, PathRejectedException, IOException {
        WorkspacePaths workspace = ctx.workspace();
        String given = args.requiredString("path");
        boolean recursive = args.optionalBoolean("recursive", false);
        if (workspace.names(given).isEmpty()) {
            throw new ToolFailure("the workspace root cannot be deleted; delete what is in it one by one");
        }
        String shown = workspace.display(workspace.resolve(given));
        try (WorkspacePaths.Target target = workspace.target(given, false)) {
            PosixFileAttributes attributes = target.parent().stat(target.name());
            if (attributes == null) {
                throw new ToolFailure("no such file or directory: " + shown);
            }
            boolean directory = attributes.isDirectory();
            if (directory && !recursive && !isEmpty(target)) {
                throw new ToolFailure(shown + " is a directory that is not empty; set recursive to true to delete it "
                        + "and everything in it");
            }
            // A link is deleted as a link: its target is neither read nor removed.
            String before = attributes.isRegularFile() ? FileChanges.textOrNull(target, settings.maxFileBytes())
                    : null;
            String backup = FileChanges.backUp(settings, workspace, target);
            target.parent().deleteTree(target.name());
            String diff = before == null ? null : FileChanges.diffOrNull(before, null, shown);
            return new ToolOutcome(true, "deleted " + shown + (directory ? "/ and everything in it" : "") + backup,
                    null, diff, false).changing(target.path());
        } catch (NoSuchFileException e) {
            throw new ToolFailure("no such file or directory: " + shown);
        }
    }

    private static boolean isEmpty(WorkspacePaths.Target target) throws IOException {
        try (WorkspaceDir dir = target.parent().openDirectory(target.name())) {
            return dir.names().isEmpty();
        }
    }
}
