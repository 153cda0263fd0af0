package dev.agentbus.modelclient;

/**
 * Separates {@code <think>…</think>} blocks from the visible answer in text that arrives piece by piece.
 *
 * <p>Models such as DeepSeek-R1 and Qwen3 served by some servers write their reasoning inline in the
 * content. A tag can be cut anywhere by the stream ({@code "<thi"} + {@code "nk>"}), so the tail of the
 * text that could still become a tag is held back until the next piece decides it. Whitespace that only
 * lays out the block (the newlines around the tags) is dropped, so the answer does not start with
 * blank lines; everything else is passed on unchanged, in order, as soon as it is known.
 *
 * <p>Tags are recognised anywhere, not only at the start, because some models think again between tool
 * calls or after a first sentence. An unclosed {@code <think>} (the model ran out of tokens while
 * thinking) counts as reasoning up to the end. Not thread-safe: one instance per reply.
 */
final class ThinkTagSplitter {

    /** Where classified text goes. */
    interface Sink {
        void content(String text);

        void reasoning(String text);
    }

    private static final String OPEN = "<think>";
    private static final String CLOSE = "</think>";

    private final Sink sink;
    /** Text not yet classified because it could be the beginning of a tag. */
    private final StringBuilder pending = new StringBuilder();
    /** Trailing whitespace of the current segment, emitted only if more text follows in the segment. */
    private final StringBuilder heldWhitespace = new StringBuilder();
    private boolean inThink;
    /** Right after a tag: leading whitespace of the new segment is layout, not text. */
    private boolean afterTag;

    ThinkTagSplitter(Sink sink) {
        this.sink = sink;
    }

    void feed(String text) {
        if (text == null || text.isEmpty()) {
            return;
        }
        pending.append(text);
        while (true) {
            String tag = inThink ? CLOSE : OPEN;
            int at = pending.indexOf(tag);
            if (at >= 0) {
                emit(pending.substring(0, at));
                pending.delete(0, at + tag.length());
                heldWhitespace.setLength(0); // whitespace right before a tag is layout too
                inThink = !inThink;
                afterTag = true;
                continue;
            }
            int keep = partialTagAtEnd(tag);
            emit(pending.substring(0, pending.length() - keep));
            pending.delete(0, pending.length() - keep);
            return;
        }
    }

    /** Call once at the end of the reply: whatever was held back is text after all. */
    void finish() {
        emit(pending.toString());
        pending.setLength(0);
        if (!heldWhitespace.isEmpty()) {
            send(heldWhitespace.toString());
            heldWhitespace.setLength(0);
        }
    }

    private void emit(String text) {
        if (text.isEmpty()) {
            return;
        }
        if (afterTag) {
            text = text.stripLeading();
            if (text.isEmpty()) {
                return;
            }
            afterTag = false;
        }
        int end = text.length();
        while (end > 0 && Character.isWhitespace(text.charAt(end - 1))) {
            end--;
        }
        if (end > 0) {
            send(heldWhitespace + text.substring(0, end));
            heldWhitespace.setLength(0);
        }
        heldWhitespace.append(text, end, text.length());
    }

    private void send(String text) {
        if (inThink) {
            sink.reasoning(text);
        } else {
            sink.content(text);
        }
    }

    /** Length of the longest end of {@link #pending} that is a proper beginning of {@code tag}. */
    private int partialTagAtEnd(String tag) {
        for (int k = Math.min(pending.length(), tag.length() - 1); k > 0; k--) {
            if (pending.substring(pending.length() - k).equals(tag.substring(0, k))) {
                return k;
            }
        }
        return 0;
    }
}
