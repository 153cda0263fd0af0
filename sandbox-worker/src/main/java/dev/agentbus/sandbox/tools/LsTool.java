package dev.agentbus.sandbox.tools;

import dev.agentbus.sandbox.workspace.PathRejectedException;
import dev.agentbus.sandbox.workspace.WorkspacePaths;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * {@code ls {path?}}: the entries of one directory (default the workspace root), sorted by name, directories with a
 * trailing {@code /}, links as {@code name -> target}, hidden files included. Links are shown, not followed.
 */
final class LsTool implements Tool {
    static final int MAX_ENTRIES = 1000;

    @Override
    public ToolOutcome run(Args args, ToolContext ctx)
            throws ToolFailure, PathRejectedException, IOException {
        WorkspacePaths workspace = ctx.workspace();
        Path dir = workspace.resolve(args.optionalString("path").orElse("."));
        String shown = workspace.display(dir);
        if (!Files.exists(dir)) {
            throw new ToolFailure("no such file or directory: " + shown);
        }
        if (!Files.isDirectory(dir)) {
            return ToolOutcome.success(shown + " (file, " + Files.size(dir) + " bytes)");
        }
        List<Path> children;
        try (Stream<Path> list = Files.list(dir)) {
            children = new ArrayList<>(list.toList());
        }
        if (children.isEmpty()) {
            return ToolOutcome.success(shown + ": empty directory");
        }
        children.sort((x, y) -> x.getFileName().toString().compareTo(y.getFileName().toString()));
        StringBuilder out = new StringBuilder();
        for (Path child : children.subList(0, Math.min(children.size(), MAX_ENTRIES))) {
            out.append(entry(child)).append('\n');
        }
        if (children.size() > MAX_ENTRIES) {
            out.append("[").append(children.size() - MAX_ENTRIES).append(" more entries not shown; use glob or "
                    + "shell to narrow down]\n");
        }
        return ToolOutcome.success(out.toString());
    }

    private static String entry(Path child) throws IOException {
        String name = child.getFileName().toString();
        if (Files.isSymbolicLink(child)) {
            return name + " -> " + Files.readSymbolicLink(child);
        }
        return Files.isDirectory(child, LinkOption.NOFOLLOW_LINKS) ? name + "/" : name;
    }
}
