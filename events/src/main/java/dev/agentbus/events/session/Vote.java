package dev.agentbus.events.session;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

import java.util.Locale;

/** A person's thumbs on an answer: {@code up} or {@code down}. */
public enum Vote {
    UP, DOWN;

    @JsonValue
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    @JsonCreator
    public static Vote parse(String s) {
        if (s == null) {
            return null;
        }
        return switch (s.strip().toLowerCase(Locale.ROOT)) {
            case "up", "+1", "1" -> UP;
            case "down", "-1" -> DOWN;
            default -> throw new IllegalArgumentException("vote must be \"up\" or \"down\", not '" + s + "'");
        };
    }
}
