package dev.agentbus.orchestrator.deciding;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A parsed request to wait: from a final answer containing a line {@code WAIT: <ISO-8601 time>: <reason>}
 * (LMAgent's convention), or from the wait tool's arguments. A time without an offset is taken as UTC.
 */
record WaitRequest(Instant until, String reason) {
    private static final Pattern LINE = Pattern.compile("^\\s*WAIT:\\s*(\\S+?):?(?:\\s+(.*?))?\\s*$");

    /** The WAIT line of an answer, if it has one whose time parses. */
    public static Optional<WaitRequest> fromAnswer(String content) {
        if (content == null) {
            return Optional.empty();
        }
        for (String line : content.split("\\R")) {
            Matcher m = LINE.matcher(line);
            if (m.matches()) {
                Optional<Instant> t = parseTime(m.group(1));
                if (t.isPresent()) {
                    return Optional.of(new WaitRequest(t.get(), m.group(2)));
                }
            }
        }
        return Optional.empty();
    }

    public static Optional<Instant> parseTime(String text) {
        try {
            return Optional.of(OffsetDateTime.parse(text).toInstant());
        } catch (DateTimeParseException notOffset) {
            try {
                return Optional.of(LocalDateTime.parse(text).toInstant(ZoneOffset.UTC));
            } catch (DateTimeParseException notLocal) {
                return Optional.empty();
            }
        }
    }
}
