package dev.agentbus.events;

import java.util.Optional;

/**
 * Reading an enum constant the way people and models write it: any case, spaces around it ignored. One rule for
 * permission modes, urgencies, todo states and memory actions, so {@code "Manual "} means the same everywhere.
 */
public final class EnumNames {
    private EnumNames() {
    }

    /** The constant of {@code type} named {@code text} in any case; empty for null and anything else. */
    public static <E extends Enum<E>> Optional<E> parse(Class<E> type, String text) {
        if (text == null) {
            return Optional.empty();
        }
        String wanted = text.strip();
        for (E constant : type.getEnumConstants()) {
            if (constant.name().equalsIgnoreCase(wanted)) {
                return Optional.of(constant);
            }
        }
        return Optional.empty();
    }
}
