package dev.agentbus.gateway.memory;

import dev.agentbus.api.ApiJson;
import dev.agentbus.api.Memory;
import dev.agentbus.eventbus.CompactedTopicView;
import dev.agentbus.events.memory.MemoryCommand;
import dev.agentbus.events.memory.MemoryDocument;
import dev.agentbus.gateway.errors.ApiException;
import dev.agentbus.gateway.sessions.InputSender;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Consumes;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Delete;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.Produces;
import io.micronaut.http.annotation.Put;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;

import java.util.UUID;

import static dev.agentbus.gateway.auth.Callers.userOf;

/**
 * The caller's memory document (OS-Agent's get/set/reset). Changes go to the memory-service as commands on
 * {@code agentbus.memory-commands}; the answer waits until the new version appears on {@code agentbus.user-memory},
 * so a GET right after a PUT sees it.
 */
@Controller("/api/v1/memory")
@ExecuteOn(TaskExecutors.BLOCKING)
class MemoryController {
    static final int MAX_MEMORY_CHARS = 64 * 1024;
    private static final long WAIT_MS = 10_000;

    private final CompactedTopicView<MemoryDocument> memory;
    private final InputSender sender;

    public MemoryController(CompactedTopicView<MemoryDocument> memory, InputSender sender) {
        this.memory = memory;
        this.sender = sender;
    }

    public record MemoryRequest(@Nullable String content) {
    }

    @Get
    @Produces(MediaType.APPLICATION_JSON)
    public String get(HttpRequest<?> request) {
        String user = userOf(request);
        return json(memory.get(user).orElse(MemoryDocument.empty(user)));
    }

    @Put
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public String put(@Body @Nullable MemoryRequest body, HttpRequest<?> request) throws InterruptedException {
        if (body == null || body.content() == null) {
            throw ApiException.badRequest("content is required");
        }
        if (body.content().length() > MAX_MEMORY_CHARS) {
            throw new ApiException(HttpStatus.REQUEST_ENTITY_TOO_LARGE,
                    "memory is longer than " + MAX_MEMORY_CHARS + " characters");
        }
        String commandId = UUID.randomUUID().toString();
        sender.send(new MemoryCommand.SetMemory(commandId, userOf(request), body.content()));
        return json(awaitApplied(userOf(request), commandId));
    }

    @Delete
    @Produces(MediaType.APPLICATION_JSON)
    public String reset(HttpRequest<?> request) throws InterruptedException {
        String commandId = UUID.randomUUID().toString();
        sender.send(new MemoryCommand.ResetMemory(commandId, userOf(request)));
        return json(awaitApplied(userOf(request), commandId));
    }

    private MemoryDocument awaitApplied(String user, String commandId) throws InterruptedException {
        long deadline = System.currentTimeMillis() + WAIT_MS;
        while (System.currentTimeMillis() < deadline) {
            var doc = memory.get(user);
            if (doc.isPresent() && commandId.equals(doc.get().lastCommandId())) {
                return doc.get();
            }
            Thread.sleep(20);
        }
        throw new ApiException(HttpStatus.SERVICE_UNAVAILABLE,
                "the memory-service did not apply the change within 10 s; it is queued and will apply when it runs");
    }

    private static String json(MemoryDocument doc) {
        return ApiJson.write(Memory.of(doc));
    }

}
