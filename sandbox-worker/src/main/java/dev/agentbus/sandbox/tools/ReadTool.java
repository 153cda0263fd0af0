package dev.agentbus.sandbox.tools;

import dev.agentbus.sandbox.workspace.PathRejectedException;
import dev.agentbus.sandbox.workspace.WorkspacePaths;

import java.io.IOException;
import java.util.List;
import java.util.function.Consumer;

/**
 * {@code read {path, start_line?, end_line?}}: a text file, or a 1-based inclusive range of its lines.
 *
 * <p>Output is a header naming the range and the total line count, then the lines numbered like {@code cat -n}
 * (number, tab, text), so the model can ask for a precise range next. When the lines do not fit the output cap,
 * reading stops at a whole line and says where to continue, rather than being cut mid-line by the generic cap.
 */
final class ReadTool implements Tool {
    /** Room kept under the cap for the header and the continuation note. */
    private static final int RESERVE_BYTES = 512;

    private final SandboxSettings settings;

    ReadTool(SandboxSettings settings) {
        this.settings = settings;
    }

    @Override
    public ToolOutcome run(Args args, ToolContext ctx)
            throws ToolFailure, PathRejectedException, IOException {
        WorkspacePaths workspace = ctx.workspace();
        String given = args.requiredString("path");
        String shown = workspace.display(workspace.resolve(given));
        byte[] bytes = TextFiles.load(workspace, given, settings.maxFileBytes());
        if (TextFiles.looksBinary(bytes)) {
            throw new ToolFailure("binary file, not shown: " + shown + " (" + bytes.length
                    + " bytes); use shell tools such as file or xxd to inspect it");
        }
        List<String> lines = TextFiles.lines(TextFiles.decodeLenient(bytes));
        int total = lines.size();
        int start = args.optionalInt("start_line").orElse(1);
        int end = args.optionalInt("end_line").orElse(Integer.MAX_VALUE); // absent: to the end, clamped below
        if (start < 1) {
            throw new ToolFailure("start_line must be 1 or more (lines are numbered from 1)");
        }
        if (end < start) {
            throw new ToolFailure("end_line (" + end + ") must not be before start_line (" + start + ")");
        }
        if (total == 0) {
            return ToolOutcome.success(shown + ": empty file (0 lines)");
        }
        if (start > total) {
            throw new ToolFailure("start_line " + start + " is past the end of " + shown + " (" + total + " lines)");
        }
        end = Math.min(end, total);
        return ToolOutcome.success(render(shown, lines, start, end));
    }

    private String render(String shown, List<String> lines, int start, int end) {
        long budget = Math.max(settings.outputCapBytes() - RESERVE_BYTES, 256);
        StringBuilder body = new StringBuilder();
        long used = 0;
        int last = start - 1;
        for (int n = start; n <= end; n++) {
            String line = String.format("%6d\t%s\n", n, lines.get(n - 1));
            long size = TextFiles.utf8Length(line);
            if (used + size > budget) {
                if (last < start) {
                    // A single line longer than the budget (minified code): show its beginning rather than nothing.
                    body.append(TextFiles.shorten(line, (int) (budget / 4))).append('\n');
                    last = n;
                }
                break;
            }
            body.append(line);
            used += size;
            last = n;
        }
        int total = lines.size();
        String header = start == 1 && last == total
                ? shown + ": " + total + " lines\n"
                : shown + ": lines " + start + "-" + last + " of " + total + "\n";
        if (last < end) {
            body.append("[stopped at line ").append(last).append(" to stay under the output limit; continue with "
                    + "start_line=").append(last + 1).append("]\n");
        }
        return header + body;
    }
}
