package dev.agentbus.gateway.memory;

import dev.agentbus.eventbus.CompactedTopicView;
import dev.agentbus.events.memory.MemoryCommand;
import dev.agentbus.events.memory.MemoryDocument;
import dev.agentbus.gateway.errors.ApiException;
import dev.agentbus.gateway.sessions.InputSender;
import io.micronaut.http.HttpStatus;
import jakarta.inject.Singleton;

import java.util.UUID;

/**
 * A user's memory document (OS-Agent's get/set/reset memory), for every adapter: the HTTP routes and the WebSocket
 * commands. Changes go to the memory-service as commands on {@code agentbus.memory-commands}; a change is answered
 * once its new version appears on {@code agentbus.user-memory}, so a read right after it sees it.
 */
@Singleton
public final class UserMemory {
    public static final int MAX_MEMORY_CHARS = 64 * 1024;
    private static final java.time.Duration WAIT = java.time.Duration.ofSeconds(10);

    private final CompactedTopicView<MemoryDocument> memory;
    private final InputSender sender;

    public UserMemory(CompactedTopicView<MemoryDocument> memory, InputSender sender) {
        this.memory = memory;
        this.sender = sender;
    }

    public MemoryDocument get(String user) {
        return memory.get(user).orElse(MemoryDocument.empty(user));
    }

    /** Replaces the document; {@code content} may be empty, never null. */
    public MemoryDocument set(String user, String content) throws InterruptedException {
        if (content.length() > MAX_MEMORY_CHARS) {
            throw new ApiException(HttpStatus.REQUEST_ENTITY_TOO_LARGE,
                    "memory is longer than " + MAX_MEMORY_CHARS + " characters");
        }
        String commandId = UUID.randomUUID().toString();
        sender.send(new MemoryCommand.SetMemory(commandId, user, content));
        return awaitApplied(user, commandId);
    }

    public MemoryDocument reset(String user) throws InterruptedException {
        String commandId = UUID.randomUUID().toString();
        sender.send(new MemoryCommand.ResetMemory(commandId, user));
        return awaitApplied(user, commandId);
    }

    private MemoryDocument awaitApplied(String user, String commandId) throws InterruptedException {
        if (memory.awaitValue(user, doc -> doc.isPresent() && commandId.equals(doc.get().lastCommandId()), WAIT)) {
            return memory.get(user).orElseThrow();
        }
        throw new ApiException(HttpStatus.SERVICE_UNAVAILABLE,
                "the memory-service did not apply the change within 10 s; it is queued and will apply when it runs");
    }
}
