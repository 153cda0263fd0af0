package dev.agentbus.cli.chat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Semaphore;

/**
 * The lines chat reads from standard input, one at a time, in a way Ctrl-C can interrupt.
 *
 * <p>A read from stdin cannot be interrupted in Java (not by Thread.interrupt, not portably by closing System.in). So
 * a daemon thread does the reading, one line per {@link #next()} (it never reads ahead, so piped input is consumed
 * only as far as it is used), and hands it over through a queue; {@link #interrupt()} puts a marker in the same queue,
 * which wakes {@link #next()} at once. The reader thread may stay blocked in read() after that: it is a daemon, so
 * it does not keep the JVM alive.
 *
 * <p>Input is read as UTF-8, like the output is written, whatever the locale.
 */
final class LineSource {
    private static final Object END = new Object();
    private static final Object INTERRUPTED = new Object();

    private final BlockingQueue<Object> items = new LinkedBlockingQueue<>();
    private final Semaphore demand = new Semaphore(0);
    private final BufferedReader reader;
    private boolean requested;
    private boolean ended;

    LineSource(InputStream in) {
        this.reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
        Thread thread = new Thread(this::readLoop, "agentbus-stdin");
        thread.setDaemon(true);
        thread.start();
    }

    /** The next line, without its line terminator; null at end of input or when interrupted while waiting. */
    String next() {
        if (ended) {
            return null;
        }
        if (!requested) {
            demand.release();
            requested = true;
        }
        Object item;
        try {
            item = items.take();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
        if (item == INTERRUPTED) {
            return null; // the read stays requested: its line is the answer to the next call
        }
        requested = false;
        if (item == END) {
            ended = true;
            return null;
        }
        return (String) item;
    }

    /** Wakes a waiting {@link #next()} (which then returns null); from any thread, e.g. a signal handler. */
    void interrupt() {
        items.add(INTERRUPTED);
    }

    private void readLoop() {
        try {
            while (true) {
                demand.acquire();
                String line = reader.readLine();
                if (line == null) {
                    items.add(END);
                    return;
                }
                items.add(line);
            }
        } catch (IOException | InterruptedException unreadable) {
            items.add(END); // a broken stdin ends the conversation like Ctrl-D does
        }
    }
}
