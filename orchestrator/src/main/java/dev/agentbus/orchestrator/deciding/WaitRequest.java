package dev.agentbus.orchestrator.deciding;

import com.fasterxml.jackson.databind.JsonNode;

import java.time.Duration;
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

    /** A wait further away than this is a mistake (or a trick), not a plan: it is refused, never scheduled. */
    static final Duration MAX_WAIT = Duration.ofDays(366);

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

    /** The wait tool's arguments: {@code until} (ISO-8601) or {@code seconds}, within reach of now. */
    static Optional<WaitRequest> fromArguments(JsonNode args, Instant now) {
        String reason = args.hasNonNull("reason") ? args.get("reason").asText() : null;
        if (args.hasNonNull("until")) {
            return parseTime(args.get("until").asText()).map(t -> new WaitRequest(t, reason))
                    .filter(w -> withinReach(w.until(), now));
        }
        if (args.hasNonNull("seconds") && args.get("seconds").canConvertToLong()) {
            long seconds = args.get("seconds").asLong();
            if (seconds >= 0 && seconds <= MAX_WAIT.toSeconds()) {
                return Optional.of(new WaitRequest(now.plusSeconds(seconds), reason));
            }
        }
        return Optional.empty();
    }

    static boolean withinReach(Instant until, Instant now) {
        return !until.isAfter(now.plus(MAX_WAIT));
    }
}
