package dev.agentbus.sandbox.tools;

import dev.agentbus.sandbox.workspace.PathRejectedException;
import dev.agentbus.sandbox.workspace.WorkspacePaths;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;
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
        Path target = workspace.resolve(args.optionalString("path").orElse("."));
        String shownTarget = workspace.display(target);
        String globText = args.optionalString("glob").orElse(null);
        Globs glob = globText == null ? null : Globs.compile(globText);
        boolean byName = globText != null && !globText.contains("/");
        if (!Files.exists(target)) {
            throw new ToolFailure("no such file or directory: " + shownTarget);
        }
        FileWalk.Listing listing = Files.isDirectory(target)
                ? FileWalk.under(target, false)
                : new FileWalk.Listing(List.of(target), false);

        StringBuilder out = new StringBuilder();
        int matches = 0;
        int skippedLarge = 0;
        for (Path file : listing.files()) {
            if (glob != null && !glob.matches(byName ? file.getFileName() : target.relativize(file))) {
                continue;
            }
            if (!Files.isRegularFile(file, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
                continue; // a FIFO or device would block the read forever
            }
            if (Files.size(file) > settings.maxFileBytes()) {
                skippedLarge++;
                continue;
            }
            byte[] bytes;
            try {
                bytes = Files.readAllBytes(file);
            } catch (IOException unreadable) {
                continue;
            }
            if (TextFiles.looksBinary(bytes)) {
                continue;
            }
            String shown = workspace.display(file);
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
                break;
            }
        }
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
