package dev.agentbus.events.insights;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import dev.agentbus.events.EnumNames;

import java.util.Locale;
import java.util.Optional;

/**
 * What the agent's {@code manage_memory} call does to the user's insights. {@code list} only reads, so it is never
 * recorded as a change ({@code memory.managed.v1} carries the other three).
 */
public enum MemoryAction {
    LIST, ADD, UPDATE, DELETE;

    @JsonValue
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static Optional<MemoryAction> parse(String name) {
        return EnumNames.parse(MemoryAction.class, name);
    }

    @JsonCreator
    static MemoryAction fromJson(String name) {
        return parse(name).orElseThrow(() -> new IllegalArgumentException("unknown memory action '" + name + "'"));
    }
}
