package dev.agentbus.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.agentbus.events.memory.MemoryDocument;

import java.time.Instant;

/**
 * {@code GET}, {@code PUT} and {@code DELETE /api/v1/memory}: the caller's memory document. {@code updatedAt} and
 * {@code lastCommandId} are absent for a user who never had one (version 0).
 *
 * @param version       1, 2, 3 … per user, one more for every set or reset
 * @param lastCommandId the command that produced this version
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Memory(String userId, String content, long version, Instant updatedAt, String lastCommandId) {
    public static Memory of(MemoryDocument doc) {
        return new Memory(doc.userId(), doc.content(), doc.version(), doc.updatedAt(), doc.lastCommandId());
    }
}
