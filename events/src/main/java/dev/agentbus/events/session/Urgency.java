package dev.agentbus.events.session;

import dev.agentbus.events.EnumNames;

import java.util.Locale;
import java.util.Optional;

/**
 * How urgent the agent says its notification is ({@code send_notification}'s {@code urgency}). It only changes how the
 * notification reads to the person (an urgent one says so in its title); every notification is queued the same way.
 */
public enum Urgency {
    LOW,
    NORMAL,
    HIGH;

    /** The urgency as the model writes it: {@code low}, {@code normal} or {@code high}. */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The urgency written in any case; empty for anything else. */
    public static Optional<Urgency> parse(String text) {
        return EnumNames.parse(Urgency.class, text);
    }
}
