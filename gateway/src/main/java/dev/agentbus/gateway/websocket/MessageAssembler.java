package dev.agentbus.gateway.websocket;

import java.io.ByteArrayOutputStream;

/**
 * Joins the fragments of one WebSocket message and holds it to its size limit: a text message to
 * {@code agentbus.gateway.websocket.max-text-bytes}, a binary one to the header and the largest upload. A message
 * is handed on only when its last fragment arrived within the limit, so an oversized or unfinished message never
 * reaches a command: nothing is half-written. One per connection; the socket calls it from one thread at a time.
 */
final class MessageAssembler {
    enum Kind { TEXT, BINARY, CONTINUATION }

    /** What a fragment completed. */
    sealed interface Result {
        /** More fragments are to come. */
        record Partial() implements Result {
        }

        record Complete(Kind kind, byte[] bytes) implements Result {
        }

        /** Over the limit: the message is dropped; the socket answers and closes with 1009. */
        record TooLarge(Kind kind, long atLeast, long limit) implements Result {
        }
    }

    private final long maxText;
    private final long maxBinary;
    private ByteArrayOutputStream buffer;
    private Kind started;
    /** The rest of a message that was already too large is read and dropped. */
    private boolean discarding;

    MessageAssembler(long maxTextBytes, long maxBinaryBytes) {
        this.maxText = maxTextBytes;
        this.maxBinary = maxBinaryBytes;
    }

    Result accept(Kind kind, boolean last, byte[] data) {
        Kind messageKind;
        if (kind == Kind.CONTINUATION && discarding) {
            discarding = !last;
            return new Result.Partial();
        }
        discarding = false;
        if (kind == Kind.CONTINUATION) {
            if (started == null) {
                // The WebSocket codec refuses this already (close 1002); kept total for a direct caller.
                throw new IllegalStateException("a continuation fragment without a message it continues");
            }
            messageKind = started;
        } else {
            messageKind = kind;
            buffer = new ByteArrayOutputStream();
            started = kind;
        }
        long limit = messageKind == Kind.TEXT ? maxText : maxBinary;
        long size = (long) buffer.size() + data.length;
        if (size > limit) {
            buffer = null;
            started = null;
            discarding = !last;
            return new Result.TooLarge(messageKind, size, limit);
        }
        buffer.writeBytes(data);
        if (!last) {
            return new Result.Partial();
        }
        byte[] whole = buffer.toByteArray();
        buffer = null;
        started = null;
        return new Result.Complete(messageKind, whole);
    }
}
