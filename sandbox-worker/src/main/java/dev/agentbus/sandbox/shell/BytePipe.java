package dev.agentbus.sandbox.shell;

import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * A one-way byte channel between threads: what is written to {@link #sink()} is read from {@link #source()}.
 * Used where a library wants an InputStream to pump (the stdin of a {@code docker exec}) or hands us frames from a
 * callback. Unlike {@link java.io.PipedInputStream} it does not care which threads wrote before and died (every
 * tool call runs on its own short-lived virtual thread), and writing never blocks.
 */
public final class BytePipe {
    private static final byte[] END = new byte[0];

    private final LinkedBlockingQueue<byte[]> chunks = new LinkedBlockingQueue<>();
    private volatile boolean closed;

    private final OutputStream sink = new OutputStream() {
        @Override
        public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            if (closed) {
                throw new IOException("pipe closed");
            }
            if (len > 0) {
                chunks.add(java.util.Arrays.copyOfRange(b, off, off + len));
            }
        }

        @Override
        public void close() {
            BytePipe.this.close();
        }
    };

    private final InputStream source = new InputStream() {
        private byte[] current = new byte[0];
        private int position;
        private boolean ended;

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            return read(one, 0, 1) == -1 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (len == 0) {
                return 0;
            }
            while (position >= current.length) {
                if (ended) {
                    return -1;
                }
                try {
                    current = chunks.take();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new InterruptedIOException("interrupted while reading");
                }
                position = 0;
                if (current == END) {
                    ended = true;
                    current = new byte[0];
                    return -1;
                }
            }
            int n = Math.min(len, current.length - position);
            System.arraycopy(current, position, b, off, n);
            position += n;
            return n;
        }

        @Override
        public int available() {
            return current.length - position;
        }
    };

    public OutputStream sink() {
        return sink;
    }

    public InputStream source() {
        return source;
    }

    /** Ends the stream: the reader gets what was written so far, then end of stream. */
    public void close() {
        if (!closed) {
            closed = true;
            chunks.add(END);
        }
    }
}
