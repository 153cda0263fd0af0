package dev.agentbus.sandbox.tools;

import dev.agentbus.sandbox.workspace.Backups;
import dev.agentbus.sandbox.workspace.PathRejectedException;
import dev.agentbus.sandbox.workspace.WorkspacePaths;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.stream.Stream;

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
        Path target = linkItself(workspace, given);
        String shown = workspace.display(target);
        if (target.equals(workspace.root())) {
            throw new ToolFailure("the workspace root cannot be deleted; delete what is in it one by one");
        }
        if (!Files.exists(target, LinkOption.NOFOLLOW_LINKS)) {
            throw new ToolFailure("no such file or directory: " + shown);
        }
        boolean directory = Files.isDirectory(target, LinkOption.NOFOLLOW_LINKS);
        if (directory && !recursive && !isEmpty(target)) {
            throw new ToolFailure(shown + " is a directory that is not empty; set recursive to true to delete it "
                    + "and everything in it");
        }
        String before = directory || Files.isSymbolicLink(target) ? null
                : FileChanges.textOrNull(target, settings.maxFileBytes());
        String backup = FileChanges.backUp(settings, workspace, target);
        Backups.deleteTree(target);
        String diff = before == null ? null : FileChanges.diffOrNull(before, null, shown);
        return new ToolOutcome(true, "deleted " + shown + (directory ? "/ and everything in it" : "") + backup,
                null, diff, false).changing(target);
    }

    /**
     * The path to delete, not following a final link: deleting a link removes the link. The directories above it
     * still go through {@link WorkspacePaths#resolve}, so a link cannot lead the delete out of the workspace.
     */
    private static Path linkItself(WorkspacePaths workspace, String given) throws PathRejectedException {
        Path root = workspace.root();
        try {
            Path lexical = root.resolve(given).normalize();
            if (!Path.of(given).isAbsolute() && lexical.startsWith(root) && !lexical.equals(root)
                    && Files.isSymbolicLink(lexical)) {
                Path parent = workspace.resolve(root.relativize(lexical.getParent()).toString());
                return parent.resolve(lexical.getFileName().toString());
            }
        } catch (InvalidPathException e) {
            // resolve below says what is wrong with it
        }
        return workspace.resolve(given);
    }

    private static boolean isEmpty(Path dir) throws IOException {
        try (Stream<Path> entries = Files.list(dir)) {
            return entries.findAny().isEmpty();
        }
    }
}
