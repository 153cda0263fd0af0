package dev.agentbus.gateway.memory;

import dev.agentbus.api.ApiJson;
import dev.agentbus.api.Memory;
import dev.agentbus.events.memory.MemoryDocument;
import dev.agentbus.gateway.errors.ApiException;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpRequest;
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

import static dev.agentbus.gateway.auth.Callers.userOf;

/**
 * The caller's memory document over HTTP (OS-Agent's get/set/reset), a thin adapter of {@link UserMemory}, which
 * the WebSocket commands use too.
 */
@Controller("/api/v1/memory")
@ExecuteOn(TaskExecutors.BLOCKING)
class MemoryController {
    private final UserMemory memory;

    public MemoryController(UserMemory memory) {
        this.memory = memory;
    }

    public record MemoryRequest(@Nullable String content) {
    }

    @Get
    @Produces(MediaType.APPLICATION_JSON)
    public String get(HttpRequest<?> request) {
        return json(memory.get(userOf(request)));
    }

    @Put
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public String put(@Body @Nullable MemoryRequest body, HttpRequest<?> request) throws InterruptedException {
        if (body == null || body.content() == null) {
            throw ApiException.badRequest("content is required");
        }
        return json(memory.set(userOf(request), body.content()));
    }

    @Delete
    @Produces(MediaType.APPLICATION_JSON)
    public String reset(HttpRequest<?> request) throws InterruptedException {
        return json(memory.reset(userOf(request)));
    }

    private static String json(MemoryDocument doc) {
        return ApiJson.write(Memory.of(doc));
    }
}
