package dev.agentbus.sandbox.tools;

import dev.agentbus.sandbox.workspace.PathRejectedException;
import dev.agentbus.sandbox.workspace.WorkspacePaths;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * {@code edit {path, old_text, new_text, replace_all?}}: exact, literal search and replace in one file.
 *
 * <p>Exact on purpose: a fuzzy match could change a place the model did not mean. When {@code old_text} is
 * ambiguous the edit is refused (unless {@code replace_all}) instead of guessing which occurrence was meant; the
 * messages tell the model how to make its next attempt succeed. The outcome's {@code diff} is a unified diff. The old
 * file is saved outside the workspace before it is changed ({@link FileChanges#backUp}).
 */
final class EditTool implements Tool {
    private final SandboxSettings settings;

    EditTool(SandboxSettings settings) {
        this.settings = settings;
    }

    @Override
    public ToolOutcome run(Args args, ToolContext ctx)
            throws ToolFailure, PathRejectedException, IOException {
        WorkspacePaths workspace = ctx.workspace();
        String given = args.requiredString("path");
        String oldText = args.requiredString("old_text");
        String newText = args.requiredString("new_text");
        boolean replaceAll = args.optionalBoolean("replace_all", false);
        String shown = workspace.display(workspace.resolve(given));
        if (oldText.isEmpty()) {
            throw new ToolFailure("old_text must not be empty (use write to create a file or replace all of it)");
        }
        if (oldText.equals(newText)) {
            throw new ToolFailure("old_text and new_text are identical; nothing to change");
        }
        if (workspace.names(given).isEmpty()) {
            throw new ToolFailure("is a directory, not a file: . (use ls to list it)");
        }
        try (WorkspacePaths.Target file = workspace.target(given, false)) {
            return edit(workspace, file, oldText, newText, replaceAll);
        } catch (java.nio.file.NoSuchFileException e) {
            throw new ToolFailure("file not found: " + shown);
        }
    }

    private ToolOutcome edit(WorkspacePaths workspace, WorkspacePaths.Target file, String oldText, String newText,
                             boolean replaceAll) throws ToolFailure, IOException {
        String shown = file.shown();
        byte[] bytes = TextFiles.load(file, settings.maxFileBytes());
        if (TextFiles.looksBinary(bytes)) {
            throw new ToolFailure("binary file, edit only works on text: " + shown);
        }
        String before = TextFiles.decodeStrict(bytes, shown);
        int count = occurrences(before, oldText);
        if (count == 0) {
            throw new ToolFailure("old_text not found in " + shown + "; it must match the file exactly, including "
                    + "whitespace and indentation (read the file to see its current content)");
        }
        if (count > 1 && !replaceAll) {
            throw new ToolFailure("old_text occurs " + count + " times in " + shown + "; include more surrounding "
                    + "lines to make it unique, or set replace_all to true to replace every occurrence");
        }
        String after = replaceAll ? before.replace(oldText, newText) : replaceFirst(before, oldText, newText);
        byte[] out = after.getBytes(StandardCharsets.UTF_8);
        if (out.length > settings.maxFileBytes()) {
            throw new ToolFailure("the edited file would be " + out.length + " bytes, more than the file limit of "
                    + settings.maxFileBytes() + " bytes");
        }
        String backup = FileChanges.backUp(settings, workspace, file);
        file.parent().writeAtomically(file.name(), out);
        UnifiedDiff.Result diff = UnifiedDiff.of(before, after, shown);
        String summary = "edited " + shown + ": replaced " + count + (count == 1 ? " occurrence" : " occurrences")
                + " (+" + diff.added() + " -" + diff.removed() + " lines)" + backup;
        return new ToolOutcome(true, summary, null, diff.text(), false).changing(file.path());
    }

    /** Non-overlapping occurrences, the same ones {@link String#replace} replaces. */
    static int occurrences(String text, String part) {
        int count = 0;
        for (int at = text.indexOf(part); at >= 0; at = text.indexOf(part, at + part.length())) {
            count++;
        }
        return count;
    }

    private static String replaceFirst(String text, String oldText, String newText) {
        int at = text.indexOf(oldText);
        return text.substring(0, at) + newText + text.substring(at + oldText.length());
    }
}
