package dev.agentbus.sandbox.tools;

import dev.agentbus.sandbox.workspace.PathRejectedException;
import dev.agentbus.sandbox.workspace.SymbolicLinkException;
import dev.agentbus.sandbox.workspace.WorkspaceDir;
import dev.agentbus.sandbox.workspace.WorkspacePaths;

import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.attribute.PosixFileAttributes;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code ls {path?}}: the entries of one directory (default the workspace root), sorted by name, directories with a
 * trailing {@code /}, links as {@code name -> target}, hidden files included. Links are shown, never followed: a
 * path through a link is refused (see {@link WorkspacePaths}).
 */
final class LsTool implements Tool {
    static final int MAX_ENTRIES = 1000;

    @Override
    public ToolOutcome run(Args args, ToolContext ctx)
            throws ToolFailure, PathRejectedException, IOException {
        WorkspacePaths workspace = ctx.workspace();
        String given = args.optionalString("path").orElse(".");
        String shown = workspace.display(workspace.resolve(given));
        if (workspace.names(given).isEmpty()) {
            try (WorkspaceDir root = workspace.openRoot()) {
                return list(root, shown);
            }
        }
        try (WorkspacePaths.Target target = workspace.target(given, false)) {
            PosixFileAttributes attributes = target.parent().stat(target.name());
            if (attributes == null) {
                throw new ToolFailure("no such file or directory: " + shown);
            }
            if (attributes.isSymbolicLink()) {
                throw new SymbolicLinkException(shown);
            }
            if (!attributes.isDirectory()) {
                return ToolOutcome.success(shown + " (file, " + attributes.size() + " bytes)");
            }
            try (WorkspaceDir dir = target.parent().openDirectory(target.name())) {
                return list(dir, shown);
            }
        } catch (NoSuchFileException e) {
            throw new ToolFailure("no such file or directory: " + shown);
        }
    }

    private static ToolOutcome list(WorkspaceDir dir, String shown) throws IOException {
        List<String> children = new ArrayList<>(dir.names());
        if (children.isEmpty()) {
            return ToolOutcome.success(shown + ": empty directory");
        }
        children.sort(String::compareTo);
        StringBuilder out = new StringBuilder();
        for (String child : children.subList(0, Math.min(children.size(), MAX_ENTRIES))) {
            out.append(entry(dir, child)).append('\n');
        }
        if (children.size() > MAX_ENTRIES) {
            out.append("[").append(children.size() - MAX_ENTRIES).append(" more entries not shown; use glob or "
                    + "shell to narrow down]\n");
        }
        return ToolOutcome.success(out.toString());
    }

    private static String entry(WorkspaceDir dir, String name) throws IOException {
        PosixFileAttributes attributes = dir.stat(name);
        if (attributes == null) {
            return name; // removed while listed
        }
        if (attributes.isSymbolicLink()) {
            try {
                return name + " -> " + dir.readSymbolicLink(name);
            } catch (IOException replacedMeanwhile) {
                return name + " -> ?";
            }
        }
        return attributes.isDirectory() ? name + "/" : name;
    }
}
