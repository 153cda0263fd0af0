package dev.agentbus.gateway.notifying;

import java.util.Arrays;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;

/** What a user can be notified of; each user chooses which (notification settings, {@code on}). */
enum NotificationKind {
    /** A turn of one of the user's sessions ended (completed, failed, cancelled, stopped by a guard). */
    TURN_ENDED("turn_ended"),
    /** A wait of the agent came to its time and the turn goes on. */
    WAIT_FIRED("wait_fired"),
    /** A tool call waits for the user's approval. */
    APPROVAL_PENDING("approval_pending"),
    /** Someone (the agent's program, a person) sent a notification in the session ({@code notification.posted.v1}). */
    MESSAGE("message");

    /**
     * What a user who never chose is notified of: what needs them (approvals), what they asked for (messages) and
     * the end of the work. A wait that fires is part of a turn still going on, so it is off until asked for.
     */
    public static final Set<NotificationKind> DEFAULTS = EnumSet.of(TURN_ENDED, APPROVAL_PENDING, MESSAGE);

    private final String wireName;

    NotificationKind(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }

    public static Optional<NotificationKind> parse(String name) {
        return Arrays.stream(values()).filter(k -> k.wireName.equals(name)).findFirst();
    }
}
