package dev.agentbus.events.planning;

import dev.agentbus.events.EnumNames;

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
        return EnumNames.parse(TodoStatus.class, text == null ? null : text.replace('-', '_'));
    }
}
