package dev.agentbus.sandbox.tools;

import dev.agentbus.sandbox.workspace.PathRejectedException;
import dev.agentbus.sandbox.workspace.WorkspaceDir;
import dev.agentbus.sandbox.workspace.WorkspacePaths;

import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code glob {pattern, path?}}: files whose path matches a {@code java.nio} glob, as workspace-relative paths,
 * sorted, at most {@link #MAX_RESULTS}.
 *
 * <p>A file matches when either its path relative to the workspace or its path relative to {@code path} matches,
 * so {@code {pattern:"*.java", path:"src"}} and {@code {pattern:"src/*.java"}} both do what they look like.
 * Only files (and links) are listed; directories are implied by them.
 */
final class GlobTool implements Tool {
    static final int MAX_RESULTS = 500;

    @Override
    public ToolOutcome run(Args args, ToolContext ctx)
            throws ToolFailure, PathRejectedException, IOException {
        WorkspacePaths workspace = ctx.workspace();
        String pattern = args.requiredString("pattern");
        Globs glob = Globs.compile(pattern);
        String given = args.optionalString("path").orElse(".");
        String shownBase = workspace.display(workspace.resolve(given));
        String prefix = shownBase.equals(".") ? "" : shownBase + "/";
        FileWalk.Listing listing;
        try (WorkspaceDir base = workspace.directory(given)) {
            listing = FileWalk.under(base, true);
        } catch (NotDirectoryException | NoSuchFileException e) {
            throw new ToolFailure("not a directory: " + shownBase);
        }
        List<String> matches = new ArrayList<>();
        for (String file : listing.files()) {
            if (glob.matches(Path.of(prefix + file)) || glob.matches(Path.of(file))) {
                matches.add(prefix + file);
            }
        }
        if (matches.isEmpty()) {
            return ToolOutcome.success("no files match " + pattern + (shownBase.equals(".") ? "" : " under "
                    + shownBase) + incompleteNote(listing));
        }
        StringBuilder out = new StringBuilder();
        matches.stream().limit(MAX_RESULTS).forEach(m -> out.append(m).append('\n'));
        if (matches.size() > MAX_RESULTS) {
            out.append("[").append(matches.size() - MAX_RESULTS).append(" more matches not shown (")
                    .append(matches.size()).append(" in total); use a narrower pattern or path]\n");
        }
        return ToolOutcome.success(out + incompleteNote(listing));
    }

    static String incompleteNote(FileWalk.Listing listing) {
        return listing.incomplete()
                ? "\n[search stopped after " + FileWalk.MAX_VISITED + " files; use a narrower path]"
                : "";
    }
}
