package dev.agentbus.events.memory;

import java.time.Instant;

/**
 * A user's memory document as the memory-service last stored it, on the compacted topic
 * {@code agentbus.user-memory}, keyed by user id. The orchestrator injects it into the system prompt;
 * the gateway serves it.
 *
 * @param version       1, 2, 3 … per user
 * @param lastCommandId the command that produced this version, so a writer can wait for its own change
 */
public record MemoryDocument(String userId, String content, long version, Instant updatedAt, String lastCommandId) {
    public static MemoryDocument empty(String userId) {
        return new MemoryDocument(userId, "", 0, null, null);
    }
}
