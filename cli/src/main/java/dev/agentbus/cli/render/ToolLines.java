package dev.agentbus.cli.render;

import dev.agentbus.cli.Printer;
import dev.agentbus.events.session.SessionEvent.SubAgentStarted;
import dev.agentbus.events.session.SessionEvent.ToolCallCompleted;
import dev.agentbus.events.session.SessionEvent.ToolCallRequested;

import java.util.List;

/**
 * The lines of a tool call: what was asked ({@code → name args}) and how it went ({@code ✓} with the first lines of
 * its output, or {@code ✗} with the error), cut to fit a terminal. Not shown with --quiet.
 */
final class ToolLines {
    static final int ARGS_WIDTH = 200;
    private static final int OUTPUT_WIDTH = 160;
    private static final int OUTPUT_LINES = 5;

    private final Printer printer;
    private final boolean quiet;
    private final StreamedText text;

    ToolLines(Printer printer, boolean quiet, StreamedText text) {
        this.printer = printer;
        this.quiet = quiet;
        this.text = text;
    }

    void requested(ToolCallRequested requested) {
        if (!quiet) {
            text.endStreaming();
            String args = Text.compactJson(requested.arguments(), ARGS_WIDTH);
            printer.println(printer.cyan("→ " + requested.name()) + (args.isEmpty() ? "" : " " + args));
        }
    }

    void subAgentStarted(SubAgentStarted started) {
        if (!quiet) {
            text.endStreaming();
            printer.println(printer.cyan("→ task") + " " + Text.oneLine(started.description(), ARGS_WIDTH)
                    + printer.dim("  (sub-agent " + started.childSessionId() + ")"));
        }
    }

    void completed(ToolCallCompleted completed) {
        if (!quiet) {
            text.endStreaming();
            result(completed);
        }
    }

    private void result(ToolCallCompleted c) {
        if (c.interrupted()) {
            printer.println(printer.red("  ✗ interrupted")
                    + printer.dim(": the worker stopped during the call and did not run it again"));
            return;
        }
        List<String> lines = Text.lines(c.output());
        if (c.ok()) {
            if (lines.isEmpty()) {
                printer.println(printer.green("  ✓ ") + printer.dim("done, no output"));
            } else {
                printer.println(printer.green("  ✓ ") + Text.cut(lines.get(0), OUTPUT_WIDTH));
                moreLines(lines, 1, OUTPUT_LINES);
            }
        } else {
            printer.println(printer.red("  ✗ " + (Text.isBlank(c.error()) ? "failed" : Text.oneLine(c.error(), 300))));
            moreLines(lines, 0, 3);
        }
        if (c.truncated()) {
            printer.println(printer.dim("    (output truncated)"));
        }
    }

    private void moreLines(List<String> lines, int from, int max) {
        int shown = Math.min(lines.size(), max);
        for (int i = from; i < shown; i++) {
            printer.println("    " + printer.dim(Text.cut(lines.get(i), OUTPUT_WIDTH)));
        }
        if (lines.size() > shown) {
            printer.println(printer.dim("    … " + (lines.size() - shown) + " more line"
                    + (lines.size() - shown == 1 ? "" : "s")));
        }
    }
}
