package dev.agentbus.sandbox.tools;

import dev.agentbus.sandbox.workspace.AtomicFiles;
import dev.agentbus.sandbox.workspace.PathRejectedException;
import dev.agentbus.sandbox.workspace.WorkspacePaths;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Consumer;

/** {@code mkdir {path}}: like {@code mkdir -p}; an existing directory is success, an existing file is not. */
final class MkdirTool implements Tool {
    @Override
    public ToolOutcome run(Args args, ToolContext ctx)
            throws ToolFailure, PathRejectedException, IOException {
        WorkspacePaths workspace = ctx.workspace();
        Path dir = workspace.resolve(args.requiredString("path"));
        String shown = workspace.display(dir);
        if (Files.isDirectory(dir)) {
            return ToolOutcome.success("directory already exists: " + shown + "/").changing();
        }
        if (Files.exists(dir)) {
            throw new ToolFailure("exists and is not a directory: " + shown);
        }
        AtomicFiles.createDirectories(dir);
        return ToolOutcome.success("created directory " + shown + "/").changing(dir);
    }
}
