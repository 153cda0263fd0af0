package dev.agentbus.sandbox.tools;

import dev.agentbus.sandbox.workspace.PathRejectedException;
import dev.agentbus.sandbox.workspace.SymbolicLinkException;
import dev.agentbus.sandbox.workspace.WorkspaceDir;
import dev.agentbus.sandbox.workspace.WorkspacePaths;

import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributes;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * {@code grep {pattern, path?, glob?}}: lines matching a Java regular expression, as {@code file:line: text}.
 *
 * <p>{@code path} may be a file or a directory (default the whole workspace). {@code glob} filters files like
 * ripgrep's {@code --glob}: without a {@code /} it matches the file name at any depth ({@code *.java}), with one it
 * matches the path relative to {@code path}. Binary files, files above the file size limit and links are skipped
 * (see {@link FileWalk} for why links are). At most {@link #MAX_MATCHES} lines, each cut to
 * {@link #MAX_LINE_CHARS} characters.
 */
final class GrepTool implements Tool {
    static final int MAX_MATCHES = 250;
    static final int MAX_LINE_CHARS = 300;

    private final SandboxSettings settings;

    GrepTool(SandboxSettings settings) {
        this.settings = settings;
    }

    @Override
    public ToolOutcome run(Args args, ToolContext ctx)
            throws ToolFailure, PathRejectedException, IOException {
        WorkspacePaths workspace = ctx.workspace();
        Pattern regex = compile(args.requiredString("pattern"));
        String given = args.optionalString("path").orElse(".");
        String shownTarget = workspace.display(workspace.resolve(given));
        String globText = args.optionalString("glob").orElse(null);
        Globs glob = globText == null ? null : Globs.compile(globText);
        boolean byName = globText != null && !globText.contains("/");
        Search search = new Search(regex, glob, byName);
        try {
            if (workspace.names(given).isEmpty()) {
                try (WorkspaceDir root = workspace.openRoot()) {
                    search.under(root, "");
                }
            } else {
                try (WorkspacePaths.Target target = workspace.target(given, false)) {
                    PosixFileAttributes attributes = target.parent().stat(target.name());
                    if (attributes == null) {
                        throw new ToolFailure("no such file or directory: " + shownTarget);
                    }
                    if (attributes.isSymbolicLink()) {
                        throw new SymbolicLinkException(shownTarget);
                    }
                    if (attributes.isDirectory()) {
                        try (WorkspaceDir dir = target.parent().openDirectory(target.name())) {
                            search.under(dir, shownTarget + "/");
                        }
                    } else {
                        search.file(target.parent(), target.name(), target.name(), shownTarget);
                    }
                }
            }
        } catch (NoSuchFileException e) {
            throw new ToolFailure("no such file or directory: " + shownTarget);
        }
        StringBuilder out = search.out;
        int matches = search.matches;
        int skippedLarge = search.skippedLarge;
        FileWalk.Listing listing = new FileWalk.Listing(List.of(), search.incomplete);
        if (matches == 0) {
            out.append("no matches for ").append(regex.pattern())
                    .append(shownTarget.equals(".") ? "" : " in " + shownTarget).append('\n');
        }
        if (skippedLarge > 0) {
            out.append("[skipped ").append(skippedLarge).append(skippedLarge == 1 ? " file" : " files")
                    .append(" larger than ").append(settings.maxFileBytes()).append(" bytes]\n");
        }
        return ToolOutcome.success(out + GlobTool.incompleteNote(listing));
    }

    /** One search: what it found so far. */
    private final class Search {
        final Pattern regex;
        final Globs glob;
        final boolean byName;
        final StringBuilder out = new StringBuilder();
        int matches;
        int skippedLarge;
        boolean incomplete;

        Search(Pattern regex, Globs glob, boolean byName) {
            this.regex = regex;
            this.glob = glob;
            this.byName = byName;
        }

        void under(WorkspaceDir dir, String prefix) throws IOException, ToolFailure {
            FileWalk.Listing listing = FileWalk.under(dir, false);
            incomplete = listing.incomplete();
            for (String file : listing.files()) {
                String name = file.substring(file.lastIndexOf('/') + 1);
                if (glob != null && !glob.matches(Path.of(byName ? name : file))) {
                    continue;
                }
                byte[] bytes = FileWalk.read(dir, file, settings.maxFileBytes(), () -> skippedLarge++);
                if (bytes != null && !search(bytes, prefix + file)) {
                    return;
                }
            }
        }

        void file(WorkspaceDir dir, String name, String relative, String shown) throws ToolFailure {
            if (glob != null && !glob.matches(Path.of(relative))) {
                return;
            }
            byte[] bytes = FileWalk.read(dir, name, settings.maxFileBytes(), () -> skippedLarge++);
            if (bytes != null) {
                search(bytes, shown);
            }
        }

        /** @return false once the match limit is reached */
        private boolean search(byte[] bytes, String shown) throws ToolFailure {
            if (TextFiles.looksBinary(bytes)) {
                return true;
            }
            List<String> lines = TextFiles.lines(TextFiles.decodeLenient(bytes));
            for (int i = 0; i < lines.size() && matches < MAX_MATCHES; i++) {
                if (find(regex, lines.get(i), shown, i + 1)) {
                    out.append(shown).append(':').append(i + 1).append(": ")
                            .append(TextFiles.shorten(lines.get(i), MAX_LINE_CHARS)).append('\n');
                    matches++;
                }
            }
            if (matches >= MAX_MATCHES) {
                out.append("[stopped after ").append(MAX_MATCHES).append(" matches; narrow the pattern, path or "
                        + "glob]\n");
                return false;
            }
            return true;
        }
    }

    private static Pattern compile(String pattern) throws ToolFailure {
        try {
            return Pattern.compile(pattern);
        } catch (PatternSyntaxException e) {
            throw new ToolFailure("invalid regular expression: " + e.getDescription() + " near index "
                    + e.getIndex() + " of " + pattern);
        }
    }

    /** Java's regex engine recurses; a pathological pattern on a long line overflows the stack instead of looping. */
    private static boolean find(Pattern regex, String line, String shown, int lineNumber) throws ToolFailure {
        try {
            Matcher matcher = regex.matcher(line);
            return matcher.find();
        } catch (StackOverflowError e) {
            throw new ToolFailure("regular expression too complex for line " + lineNumber + " of " + shown
                    + "; simplify the pattern");
        }
    }
}
