package dev.agentbus.events.session;

import dev.agentbus.events.EnumNames;

import dev.agentbus.events.tools.Risk;

import java.util.Locale;
import java.util.Optional;

/**
 * Which of the model's tool calls a person must approve before they run. Set per session (on creation, or at any
 * time with {@code set_permission_mode.v1}); a session whose log never set one runs in {@link #AUTO}, which is how
 * every session ran before modes existed.
 */
public enum PermissionMode {
    /** No approvals: every call runs at once. */
    AUTO,
    /** Calls that change files, run commands or reach the network (risk MEDIUM and HIGH) wait for a person. */
    NORMAL,
    /** Every call of a sandbox tool waits for a person. */
    MANUAL;

    /** Whether a call of a tool of this risk waits for a person in this mode. */
    public boolean requiresApproval(Risk risk) {
        return switch (this) {
            case AUTO -> false;
            case NORMAL -> risk != Risk.LOW;
            case MANUAL -> true;
        };
    }

    /** The mode as people write it: {@code auto}, {@code normal} or {@code manual}. */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The mode a person wrote, in any case; empty for anything else. */
    public static Optional<PermissionMode> parse(String text) {
        return EnumNames.parse(PermissionMode.class, text);
    }
}
