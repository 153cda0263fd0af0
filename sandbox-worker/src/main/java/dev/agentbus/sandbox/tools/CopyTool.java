package dev.agentbus.sandbox.tools;

import dev.agentbus.sandbox.workspace.PathRejectedException;
import dev.agentbus.sandbox.workspace.SymbolicLinkException;
import dev.agentbus.sandbox.workspace.FileTooLargeException;
import dev.agentbus.sandbox.workspace.WorkspaceDir;
import dev.agentbus.sandbox.workspace.WorkspacePaths;

import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.attribute.PosixFileAttributes;

/**
 * {@code copy {from, to, overwrite?}}: copies one regular file inside the workspace, atomically, creating the
 * destination's parent directories. A destination that exists is replaced only with {@code overwrite=true}, and
 * only after a backup. Files larger than the file limit are refused (the shell's {@code cp} can still do it), which
 * keeps a tool call from filling the disk in one step and keeps the diff meaningful.
 */
final class CopyTool implements Tool {
    private final SandboxSettings settings;

    CopyTool(SandboxSettings settings) {
        this.settings = settings;
    }

    @Override
    public ToolOutcome run(Args args, ToolContext ctx) throws ToolFailure, PathRejectedException, IOException {
        WorkspacePaths workspace = ctx.workspace();
        String fromGiven = args.requiredString("from");
        String toGiven = args.requiredString("to");
        boolean overwrite = args.optionalBoolean("overwrite", false);
        String fromShown = workspace.display(workspace.resolve(fromGiven));
        byte[] bytes = read(workspace, fromGiven, fromShown);
        String toShown = workspace.display(workspace.resolve(toGiven));
        if (isDirectory(workspace, toGiven)) {
            String name = workspace.names(fromGiven).getLast();
            toGiven = toShown.equals(".") ? name : toShown + "/" + name;
            toShown = workspace.display(workspace.resolve(toGiven));
        }
        if (fromShown.equals(toShown)) {
            throw new ToolFailure("from and to are the same file: " + fromShown);
        }
        try (WorkspacePaths.Target to = workspace.target(toGiven, true)) {
            PosixFileAttributes old = to.parent().stat(to.name());
            if (old != null && old.isSymbolicLink()) {
                throw new SymbolicLinkException(toShown);
            }
            boolean existed = old != null;
            if (existed && !old.isRegularFile()) {
                throw new ToolFailure("not a regular file, cannot copy over it: " + toShown);
            }
            if (existed && !overwrite) {
                throw new ToolFailure(toShown + " already exists; set overwrite to true to replace it (a backup is "
                        + "taken first)");
            }
            String before = existed ? FileChanges.textOrNull(to, settings.maxFileBytes()) : null;
            String backup = existed ? FileChanges.backUp(settings, workspace, to) : "";
            to.parent().writeAtomically(to.name(), bytes);
            String after = FileChanges.textOrNull(bytes, settings.maxFileBytes());
            String diff = after == null || (existed && before == null) ? null
                    : FileChanges.diffOrNull(before, after, toShown);
            return new ToolOutcome(true, "copied " + fromShown + " to " + toShown + " (" + bytes.length + " bytes"
                    + (existed ? ", replaced the old file)" : ")") + backup, null, diff, false).changing(to.path());
        }
    }

    /** The source's bytes, read through its parent's handle. */
    private byte[] read(WorkspacePaths workspace, String given, String shown)
            throws ToolFailure, PathRejectedException, IOException {
        if (workspace.names(given).isEmpty()) {
            throw notAFile(shown);
        }
        try (WorkspacePaths.Target from = workspace.target(given, false)) {
            PosixFileAttributes attributes = from.parent().stat(from.name());
            if (attributes == null) {
                throw new ToolFailure("file not found: " + shown);
            }
            if (attributes.isSymbolicLink()) {
                throw new SymbolicLinkException(shown);
            }
            if (!attributes.isRegularFile()) {
                throw notAFile(shown);
            }
            return from.parent().readAll(from.name(), settings.maxFileBytes());
        } catch (NoSuchFileException e) {
            throw new ToolFailure("file not found: " + shown);
        } catch (FileTooLargeException e) {
            throw new ToolFailure(shown + " is " + e.size() + " bytes, more than the file limit of "
                    + settings.maxFileBytes() + " bytes; use the shell (cp) for large files");
        }
    }

    private static ToolFailure notAFile(String shown) {
        return new ToolFailure("copy works on single files and " + shown + " is not one; use the shell (cp -r) "
                + "for a directory");
    }

    private static boolean isDirectory(WorkspacePaths workspace, String given)
            throws PathRejectedException, IOException {
        try (WorkspaceDir dir = workspace.directory(given)) {
            return true;
        } catch (NoSuchFileException | NotDirectoryException notOne) {
            return false;
        }
    }
}
