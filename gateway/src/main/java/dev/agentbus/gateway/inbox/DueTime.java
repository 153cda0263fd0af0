package dev.agentbus.gateway.inbox;

import dev.agentbus.gateway.errors.ApiException;

import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;

/**
 * When a task is due, from the {@code at} a client sent: absent means now; otherwise an ISO-8601 time with its zone
 * (a time without one would mean a different moment on the gateway than on the client). A time a little in the past
 * (clocks differ, a request takes time) counts as now; one further back, or beyond the limit, is refused.
 */
final class DueTime {
    /** How far in the past {@code at} may be and still count as now. */
    static final Duration GRACE = Duration.ofMinutes(1);

    private DueTime() {
    }

    static Instant of(String at, Instant now, Duration maxDelay) {
        if (at == null || at.isBlank()) {
            return now;
        }
        Instant due;
        try {
            due = OffsetDateTime.parse(at.strip()).toInstant();
        } catch (DateTimeParseException e) {
            throw ApiException.badRequest("at must be an ISO-8601 time with a zone, like 2026-11-26T09:00:00Z, not '"
                    + at + "'");
        }
        if (due.isBefore(now.minus(GRACE))) {
            throw ApiException.badRequest("at (" + due + ") is in the past; leave it out to start the task now");
        }
        if (due.isAfter(now.plus(maxDelay))) {
            throw ApiException.badRequest("at (" + due + ") is too far ahead: at most " + words(maxDelay)
                    + " from now");
        }
        return due.isBefore(now) ? now : due;
    }

    private static String words(Duration d) {
        return d.toDays() >= 1 ? d.toDays() + " days" : d.toMinutes() >= 1 ? d.toMinutes() + " minutes"
                : d.toSeconds() + " seconds";
    }
}
