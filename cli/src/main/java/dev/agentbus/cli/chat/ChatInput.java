package dev.agentbus.cli.chat;

/**
 * Where chat's lines come from: the line editor on a terminal ({@link TerminalInput}), or plain lines from a pipe
 * or a file ({@link PipedInput}).
 */
interface ChatInput extends AutoCloseable {

    /** What one read gave. */
    sealed interface Read {
        /** A line (possibly of several lines, from the editor's multi-line input) to run or send. */
        record Line(String text) implements Read {
        }

        /** Ctrl-C at the prompt; {@code typed} is what the line held when it was pressed. */
        record Interrupted(String typed) implements Read {
        }

        /** End of input: Ctrl-D, or the end of a pipe. */
        record End() implements Read {
        }
    }

    /** Shows {@code prompt} (when this input shows one) and reads the next line. */
    Read read(String prompt);

    /** Ctrl-C while reading (or before the next read): from any thread, e.g. a signal handler. */
    void interrupt();

    /** Whether this input draws the prompt itself and handles Ctrl-C as {@link CtrlC} says (the line editor). */
    boolean lineEditor();

    @Override
    void close();
}
