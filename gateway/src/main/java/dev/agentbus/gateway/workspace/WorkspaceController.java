package dev.agentbus.gateway.workspace;

import dev.agentbus.api.ApiJson;
import dev.agentbus.gateway.errors.ApiException;
import dev.agentbus.gateway.sessions.SessionAccess;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Consumes;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Delete;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.Post;
import io.micronaut.http.annotation.Produces;
import io.micronaut.http.annotation.Put;
import io.micronaut.http.annotation.QueryValue;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;

import static dev.agentbus.gateway.auth.Callers.userOf;

/**
 * A session's workspace over HTTP, for people: list a directory, read, write and delete a file, run a command in
 * the session's sandbox (the same operations as the WebSocket commands, see docs/websocket.md). A thin adapter of
 * {@link WorkspaceOperations}: reads need a session the caller may see, changes one the caller may act in.
 */
@Controller("/api/v1/sessions/{id}/workspace")
@ExecuteOn(TaskExecutors.BLOCKING)
class WorkspaceController {
    private final SessionAccess sessions;
    private final WorkspaceOperations workspace;

    WorkspaceController(SessionAccess sessions, WorkspaceOperations workspace) {
        this.sessions = sessions;
        this.workspace = workspace;
    }

    public record WriteRequest(@Nullable String content) {
    }

    public record CommandRequest(@Nullable String command, @Nullable Integer timeoutSeconds) {
    }

    @Get("/list")
    @Produces(MediaType.APPLICATION_JSON)
    public String list(String id, @QueryValue @Nullable String path, HttpRequest<?> request)
            throws InterruptedException {
        return ApiJson.write(workspace.list(sessions.readable(id, request), userOf(request), path));
    }

    @Get("/file")
    @Produces(MediaType.APPLICATION_JSON)
    public String read(String id, @QueryValue @Nullable String path, HttpRequest<?> request)
            throws InterruptedException {
        return ApiJson.write(workspace.readText(sessions.readable(id, request), userOf(request), path));
    }

    @Put("/file")
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public String write(String id, @QueryValue @Nullable String path, @Body @Nullable WriteRequest body,
                        HttpRequest<?> request) throws InterruptedException {
        var session = sessions.writable(id, request);
        if (body == null || body.content() == null) {
            throw ApiException.badRequest("content is required (it may be empty)");
        }
        return ApiJson.write(workspace.write(session, userOf(request), path, body.content()));
    }

    /** Deletes a file or a directory with everything in it ({@code recursive=false}: only an empty one). */
    @Delete("/file")
    @Produces(MediaType.APPLICATION_JSON)
    public String delete(String id, @QueryValue @Nullable String path, @QueryValue @Nullable Boolean recursive,
                         HttpRequest<?> request) throws InterruptedException {
        return ApiJson.write(workspace.delete(sessions.writable(id, request), userOf(request), path,
                recursive == null || recursive));
    }

    @Post("/commands")
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public String run(String id, @Body @Nullable CommandRequest body, HttpRequest<?> request)
            throws InterruptedException {
        var session = sessions.writable(id, request);
        return ApiJson.write(workspace.execute(session, userOf(request), body == null ? null : body.command(),
                body == null ? null : body.timeoutSeconds(), null));
    }
}
