package dev.agentbus.sandbox.shell;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;

/**
 * Keeps the first {@code capBytes} bytes of a command's merged output, counts the rest, and forwards text to a
 * live listener as it arrives.
 *
 * <p>Why bytes and not characters: the cap protects the event log and the model's context, whose limits are in
 * bytes. Bytes beyond the cap are still read and thrown away by the caller's loop, because a command whose pipe
 * is not drained blocks forever on its next write and would then only end by time-out.
 *
 * <p>The live listener gets the same capped text (decoded with a stateful decoder so a multi-byte character split
 * between two reads is not mangled); what it was shown is never more than what the result will contain.
 */
final class OutputCollector {
    private static final Logger LOG = LoggerFactory.getLogger(OutputCollector.class);

    private final int capBytes;
    private final Consumer<String> live;
    private final ByteArrayOutputStream kept = new ByteArrayOutputStream();
    private final CharsetDecoder liveDecoder = StandardCharsets.UTF_8.newDecoder()
            .onMalformedInput(CodingErrorAction.REPLACE)
            .onUnmappableCharacter(CodingErrorAction.REPLACE);
    private ByteBuffer pending = ByteBuffer.allocate(0);
    private long omitted;
    private boolean liveBroken;

    OutputCollector(int capBytes, Consumer<String> live) {
        this.capBytes = capBytes;
        this.live = live;
    }

    /** Takes one chunk read from the pipe. */
    synchronized void accept(byte[] buffer, int length) {
        if (omitted > 0) {
            // Once something was dropped, keep nothing more: later short chunks must not appear after a gap.
            omitted += length;
            return;
        }
        int room = capBytes - kept.size();
        int take = Math.min(room, length);
        if (take < length) {
            // Do not keep the first half of a UTF-8 character: back off to the start of the one being cut.
            while (take > 0 && (buffer[take] & 0xC0) == 0x80) {
                take--;
            }
        }
        if (take > 0) {
            kept.write(buffer, 0, take);
            forward(buffer, take);
        }
        omitted += length - take;
    }

    private void forward(byte[] buffer, int length) {
        if (live == null || liveBroken) {
            return;
        }
        ByteBuffer in = ByteBuffer.allocate(pending.remaining() + length);
        in.put(pending).put(buffer, 0, length).flip();
        CharBuffer out = CharBuffer.allocate(in.remaining() + 1);
        liveDecoder.decode(in, out, false);
        pending = in.slice();
        out.flip();
        if (out.hasRemaining()) {
            try {
                live.accept(out.toString());
            } catch (RuntimeException e) {
                // A failing stream publisher must not kill the reader: the pipe would stop draining.
                liveBroken = true;
                LOG.warn("live output listener failed; live output stopped for this command", e);
            }
        }
    }

    synchronized long omittedBytes() {
        return omitted;
    }

    synchronized String text() {
        return kept.toString(StandardCharsets.UTF_8);
    }
}
