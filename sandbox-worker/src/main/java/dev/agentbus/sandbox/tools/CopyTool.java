package dev.agentbus.sandbox.tools;

import dev.agentbus.sandbox.workspace.AtomicFiles;
import dev.agentbus.sandbox.workspace.PathRejectedException;
import dev.agentbus.sandbox.workspace.WorkspacePaths;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

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
        Path from = workspace.resolve(args.requiredString("from"));
        Path to = workspace.resolve(args.requiredString("to"));
        boolean overwrite = args.optionalBoolean("overwrite", false);
        String fromShown = workspace.display(from);
        String toShown = workspace.display(to);
        if (!Files.exists(from)) {
            throw new ToolFailure("file not found: " + fromShown);
        }
        if (!Files.isRegularFile(from)) {
            throw new ToolFailure("copy works on single files and " + fromShown + " is not one; use the shell "
                    + "(cp -r) for a directory");
        }
        if (Files.isDirectory(to)) {
            to = workspace.resolve(toShown.equals(".") ? from.getFileName().toString()
                    : toShown + "/" + from.getFileName());
            toShown = workspace.display(to);
        }
        if (from.equals(to)) {
            throw new ToolFailure("from and to are the same file: " + fromShown);
        }
        long size = Files.size(from);
        if (size > settings.maxFileBytes()) {
            throw new ToolFailure(fromShown + " is " + size + " bytes, more than the file limit of "
                    + settings.maxFileBytes() + " bytes; use the shell (cp) for large files");
        }
        boolean existed = Files.exists(to);
        if (existed && !Files.isRegularFile(to)) {
            throw new ToolFailure("not a regular file, cannot copy over it: " + toShown);
        }
        if (existed && !overwrite) {
            throw new ToolFailure(toShown + " already exists; set overwrite to true to replace it (a backup is "
                    + "taken first)");
        }
        String before = existed ? FileChanges.textOrNull(to, settings.maxFileBytes()) : null;
        String backup = existed ? FileChanges.backUp(settings, workspace, to) : "";
        byte[] bytes = Files.readAllBytes(from);
        AtomicFiles.write(to, bytes);
        String after = FileChanges.textOrNull(to, settings.maxFileBytes());
        String diff = after == null || (existed && before == null) ? null
                : FileChanges.diffOrNull(before, after, toShown);
        return new ToolOutcome(true, "copied " + fromShown + " to " + toShown + " (" + bytes.length + " bytes"
                + (existed ? ", replaced the old file)" : ")") + backup, null, diff, false).changing(to);
    }
}
