package dev.agentbus.gateway.websocket;

import java.util.ArrayList;
import java.util.List;

/**
 * Turns a command's output, which arrives in pieces of any size, into whole lines (OS-Agent's
 * {@code vm_execute_stream} without {@code raw}). Each line keeps its newline; what is left at the end comes out of
 * {@link #rest()}. Not thread-safe.
 */
final class LineBuffer {
    private final StringBuilder pending = new StringBuilder();

    /** The lines this piece completed, possibly none. */
    List<String> add(String piece) {
        List<String> lines = new ArrayList<>();
        int start = 0;
        for (int i = 0; i < piece.length(); i++) {
            if (piece.charAt(i) == '\n') {
                pending.append(piece, start, i + 1);
                lines.add(pending.toString());
                pending.setLength(0);
                start = i + 1;
            }
        }
        pending.append(piece, start, piece.length());
        return lines;
    }

    /** The unfinished last line, or empty; the buffer is empty after. */
    String rest() {
        String rest = pending.toString();
        pending.setLength(0);
        return rest;
    }
}
