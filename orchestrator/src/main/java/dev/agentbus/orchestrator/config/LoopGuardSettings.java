package dev.agentbus.orchestrator.config;

import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.core.bind.annotation.Bindable;

/**
 * When the loop guards step in: {@code agentbus.loop-guard.*} (environment: {@code AGENTBUS_LOOP_GUARD_REPEATED_CALLS},
 * {@code AGENTBUS_LOOP_GUARD_NO_PROGRESS}, {@code AGENTBUS_LOOP_GUARD_TOOL_ERRORS},
 * {@code AGENTBUS_LOOP_GUARD_EMPTY_REPLIES}). A guard that sees a loop warns the model once per turn; the next time,
 * the turn ends with LOOP_DETECTED. 0 turns a guard off. Checked when the orchestrator starts; see
 * docs/configuration.md.
 *
 * @param repeatedCalls the same tool with the same arguments this many times in a row
 * @param noProgress    this many model calls in a row without progress (no tool call that changed a file, no new
 *                      answer text)
 * @param toolErrors    this many failed tool calls in a row
 * @param emptyReplies  this many replies in a row with neither text nor a tool call; while this guard is on, an empty
 *                      reply does not end the turn but asks the model again
 */
@ConfigurationProperties("agentbus.loop-guard")
public record LoopGuardSettings(
        @Bindable(defaultValue = "3") int repeatedCalls,
        @Bindable(defaultValue = "8") int noProgress,
        @Bindable(defaultValue = "5") int toolErrors,
        @Bindable(defaultValue = "2") int emptyReplies) {

    public LoopGuardSettings {
        check("repeated-calls", repeatedCalls);
        check("no-progress", noProgress);
        check("tool-errors", toolErrors);
        check("empty-replies", emptyReplies);
    }

    private static void check(String name, int value) {
        if (value < 0) {
            throw new IllegalArgumentException("agentbus.loop-guard." + name + " must be 0 (off) or more, not " + value);
        }
    }
}
