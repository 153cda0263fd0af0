package dev.agentbus.orchestrator.running;

import dev.agentbus.events.insights.InsightSet;
import dev.agentbus.events.memory.MemoryDocument;
import dev.agentbus.orchestrator.deciding.remembering.InjectionLimits;

/**
 * The user's current memory document, as last read from {@code agentbus.user-memory}, and their insights, as last
 * read from {@code agentbus.user-insights}, with how many of those may go into a prompt. A lookup given as a lambda
 * (tests) has the document only: no insights are injected.
 */
@FunctionalInterface
interface MemoryLookup {
    MemoryDocument forUser(String userId);

    /** The user's insight set, or null when none is known. */
    default InsightSet insightsFor(String userId) {
        return null;
    }

    default InjectionLimits injection() {
        return InjectionLimits.OFF;
    }
}
