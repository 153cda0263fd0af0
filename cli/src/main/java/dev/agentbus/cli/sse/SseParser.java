package dev.agentbus.cli.sse;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.Reader;
import java.util.ArrayList;
import java.util.List;

/**
 * A line-at-a-time parser for {@code text/event-stream}, following the WHATWG "event stream interpretation" rules.
 *
 * <p>It is fed lines without their terminator (a {@link BufferedReader} already splits on CR, LF and CRLF, which
 * is exactly the set of line endings the spec allows), so the same parser serves a live HTTP body and a test string.
 * Written by hand rather than taken from a library because the CLI may use only the JDK's HttpClient, and because
 * the few rules that matter are easy to get subtly wrong: multi-line data is joined with {@code \n}, one space after
 * the colon is dropped (not all leading whitespace), comments start with {@code :}, a blank line dispatches, an event
 * with no data is not dispatched, and the last {@code id} persists across events (that is what a reconnect resumes
 * from).
 *
 * <p>Not thread-safe: one parser per connection.
 */
public final class SseParser {
    private final StringBuilder data = new StringBuilder();
    private boolean hasData;
    private String eventType = "";
    private String lastEventId = "";
    private long retryMillis = -1;
    private boolean firstLine = true;

    /**
     * Feeds one line. Returns the event the line completed (only blank lines complete events), otherwise null.
     */
    public SseEvent accept(String line) {
        if (firstLine) {
            firstLine = false;
            // The spec lets a stream start with a UTF-8 byte order mark; it is not part of the first field name.
            if (!line.isEmpty() && line.charAt(0) == '\uFEFF') {
                line = line.substring(1);
            }
        }
        if (line.isEmpty()) {
            return dispatch();
        }
        if (line.charAt(0) == ':') {
            return null; // a comment; servers send these as keep-alives
        }
        int colon = line.indexOf(':');
        String field;
        String value;
        if (colon < 0) {
            field = line;
            value = "";
        } else {
            field = line.substring(0, colon);
            value = line.substring(colon + 1);
            if (value.startsWith(" ")) {
                value = value.substring(1);
            }
        }
        switch (field) {
            case "event" -> eventType = value;
            case "data" -> {
                if (hasData) {
                    data.append('\n');
                }
                data.append(value);
                hasData = true;
            }
            case "id" -> {
                // A NUL in the id is ignored by the spec so that a broken server cannot poison the resume point.
                if (value.indexOf('\0') < 0) {
                    lastEventId = value;
                }
            }
            case "retry" -> {
                if (!value.isEmpty() && value.chars().allMatch(c -> c >= '0' && c <= '9')) {
                    try {
                        retryMillis = Long.parseLong(value);
                    } catch (NumberFormatException tooLong) {
                        // ignored, like any other field value the spec says to ignore
                    }
                }
            }
            default -> {
                // unknown fields are ignored
            }
        }
        return null;
    }

    private SseEvent dispatch() {
        if (!hasData) {
            // The spec: a block without data is not an event; its event type is forgotten (its id is kept).
            eventType = "";
            return null;
        }
        SseEvent event = new SseEvent(eventType.isEmpty() ? "message" : eventType, data.toString(), lastEventId);
        data.setLength(0);
        hasData = false;
        eventType = "";
        return event;
    }

    /** The last {@code id:} the server sent, or "" if none: the value to send as {@code Last-Event-ID}. */
    public String lastEventId() {
        return lastEventId;
    }

    /** The server's {@code retry:} advice in milliseconds, or -1 if it gave none. */
    public long retryMillis() {
        return retryMillis;
    }

    /**
     * Parses a whole stream. An incomplete event at the end (no blank line after it) is dropped, as the spec says:
     * a connection that breaks mid-event must not produce half an event.
     */
    public static List<SseEvent> parseAll(Reader reader) throws IOException {
        SseParser parser = new SseParser();
        List<SseEvent> events = new ArrayList<>();
        BufferedReader lines = reader instanceof BufferedReader b ? b : new BufferedReader(reader);
        String line;
        while ((line = lines.readLine()) != null) {
            SseEvent e = parser.accept(line);
            if (e != null) {
                events.add(e);
            }
        }
        return events;
    }
}
