package dev.agentbus.sandbox.tools;

import dev.agentbus.sandbox.workspace.PathRejectedException;
import dev.agentbus.sandbox.workspace.SymbolicLinkException;
import dev.agentbus.sandbox.workspace.WorkspaceDir;
import dev.agentbus.sandbox.workspace.WorkspacePaths;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.attribute.PosixFileAttributes;

/**
 * {@code mkdir {path}}: like {@code mkdir -p}; an existing directory is success, an existing file is not. Each
 * directory is made in its parent's handle (see {@link WorkspaceDir#createDirectory}), never through a link.
 */
final class MkdirTool implements Tool {
    @Override
    public ToolOutcome run(Args args, ToolContext ctx)
            throws ToolFailure, PathRejectedException, IOException {
        WorkspacePaths workspace = ctx.workspace();
        String given = args.requiredString("path");
        String shown = workspace.display(workspace.resolve(given));
        try (WorkspaceDir existing = workspace.directory(given)) {
            return ToolOutcome.success("directory already exists: " + shown + "/").changing();
        } catch (NoSuchFileException | NotDirectoryException notYet) {
            // made below, or refused there with what is in the way
        }
        try (WorkspacePaths.Target dir = workspace.target(given, true)) {
            PosixFileAttributes there = dir.parent().stat(dir.name());
            if (there != null && there.isSymbolicLink()) {
                throw new SymbolicLinkException(shown);
            }
            if (there != null && !there.isDirectory()) {
                throw new ToolFailure("exists and is not a directory: " + shown);
            }
            if (there == null) {
                try {
                    dir.parent().createDirectory(dir.name());
                } catch (FileAlreadyExistsException madeMeanwhile) {
                    // by the sandbox, at the same moment: what it is, the next call sees
                }
            }
            return ToolOutcome.success("created directory " + shown + "/").changing(dir.path());
        } catch (NotDirectoryException e) {
            throw new ToolFailure("exists and is not a directory: " + workspace.scrub(e.getFile()));
        }
    }
}
