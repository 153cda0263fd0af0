package dev.agentbus.orchestrator.running;

import dev.agentbus.events.memory.MemoryDocument;

/** The user's current memory document, as last read from {@code agentbus.user-memory}. */
@FunctionalInterface
interface MemoryLookup {
    MemoryDocument forUser(String userId);
}
