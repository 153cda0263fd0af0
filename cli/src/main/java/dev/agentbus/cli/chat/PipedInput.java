package dev.agentbus.cli.chat;

import dev.agentbus.cli.Printer;

import java.io.InputStream;

/**
 * Chat's lines without a line editor: from a pipe or a file (scripts, tests, CI), or from a terminal the line editor
 * could not open. One line per read, as {@link LineSource} reads them; Ctrl-C at the prompt ends the input, which
 * ends chat, as it always has without the editor.
 */
final class PipedInput implements ChatInput {
    private final LineSource lines;
    private final Printer printer;
    private final boolean prompt;

    /** {@code prompt}: a person types here (a terminal without the editor), so show the prompt. */
    PipedInput(InputStream in, Printer printer, boolean prompt) {
        this.lines = new LineSource(in);
        this.printer = printer;
        this.prompt = prompt;
    }

    @Override
    public Read read(String promptText) {
        if (prompt) {
            printer.prompt(promptText);
        }
        String line = lines.next();
        return line == null ? new Read.End() : new Read.Line(line);
    }

    @Override
    public void interrupt() {
        lines.interrupt();
    }

    @Override
    public boolean lineEditor() {
        return false;
    }

    @Override
    public void close() {
        // the reader thread is a daemon; stdin is not ours to close
    }
}
