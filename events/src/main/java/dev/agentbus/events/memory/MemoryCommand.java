package dev.agentbus.events.memory;

import dev.agentbus.events.WireType;

/**
 * Requests to change a user's memory document, on {@code agentbus.memory-commands}, keyed by user id.
 * Written by the gateway; read only by the memory-service, the single writer of {@code agentbus.user-memory}.
 */
public sealed interface MemoryCommand {
    String commandId();

    String userId();

    /** Replace the user's memory document. */
    @WireType("memory.set.v1")
    record SetMemory(String commandId, String userId, String content) implements MemoryCommand {
    }

    /** Empty the user's memory document. */
    @WireType("memory.reset.v1")
    record ResetMemory(String commandId, String userId) implements MemoryCommand {
    }
}
