package dev.agentbus.events.planning;

import java.util.Locale;
import java.util.Optional;

/** Where a todo stands. The model sets it with {@code todo_update} and {@code todo_complete}. */
public enum TodoStatus {
    PENDING,
    IN_PROGRESS,
    DONE,
    /** Dropped: no longer needed. Todos are never deleted, so their numbers stay stable. */
    CANCELLED;

    /** As the model and people write it: {@code pending}, {@code in_progress}, {@code done}, {@code cancelled}. */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The status written in any case (also {@code in-progress}); empty for anything else. */
    public static Optional<TodoStatus> parse(String text) {
        if (text == null) {
            return Optional.empty();
        }
        String wanted = text.strip().replace('-', '_');
        for (TodoStatus s : values()) {
            if (s.name().equalsIgnoreCase(wanted)) {
                return Optional.of(s);
            }
        }
        return Optional.empty();
    }
}
