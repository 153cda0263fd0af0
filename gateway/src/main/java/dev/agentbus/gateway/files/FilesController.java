package dev.agentbus.gateway.files;

import dev.agentbus.api.ApiJson;
import dev.agentbus.gateway.errors.ApiException;
import dev.agentbus.gateway.sessions.SessionAccess;
import dev.agentbus.gateway.workspace.WorkspaceOperations;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Consumes;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.PathVariable;
import io.micronaut.http.annotation.Produces;
import io.micronaut.http.annotation.Put;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;

import static dev.agentbus.gateway.auth.Callers.userOf;

/**
 * Files in and out of a session's workspace (OS-Agent's upload_document and download_file), see docs/api.md#files.
 * A thin adapter of {@link WorkspaceOperations}, which runs the user-only tools {@code upload} and {@code download}
 * through the log, like any tool call, and waits for the result. So a transfer is recorded in the session's
 * history, happens in order with the agent's own calls, and only while no turn runs.
 */
@Controller("/api/v1/sessions/{id}/files")
@ExecuteOn(TaskExecutors.BLOCKING)
class FilesController {
    static final int MAX_PATH_CHARS = 1024;

    private final SessionAccess sessions;
    private final WorkspaceOperations workspace;

    FilesController(SessionAccess sessions, WorkspaceOperations workspace) {
        this.sessions = sessions;
        this.workspace = workspace;
    }

    /** Writes the request body, as is, to {@code path} in the workspace. */
    @Put("/{+path}")
    @Consumes({MediaType.APPLICATION_OCTET_STREAM, MediaType.ALL})
    @Produces(MediaType.APPLICATION_JSON)
    public String upload(String id, @PathVariable("path") String path, @Body @Nullable byte[] body,
                         HttpRequest<?> request) throws InterruptedException {
        String file = checkedPath(path);
        return ApiJson.write(workspace.upload(sessions.writable(id, request), userOf(request), file,
                body == null ? new byte[0] : body));
    }

    /** The workspace file at {@code path}, as bytes. */
    @Get("/{+path}")
    @Produces(MediaType.APPLICATION_OCTET_STREAM)
    public HttpResponse<byte[]> download(String id, @PathVariable("path") String path, HttpRequest<?> request)
            throws InterruptedException {
        String file = checkedPath(path);
        WorkspaceOperations.Download download = workspace.download(sessions.writable(id, request), userOf(request),
                file);
        String name = file.substring(file.lastIndexOf('/') + 1).replaceAll("[^A-Za-z0-9._ -]", "_");
        return HttpResponse.ok(download.content()).contentType(MediaType.APPLICATION_OCTET_STREAM_TYPE)
                .header("Content-Disposition", "attachment; filename=\"" + name + "\"");
    }

    private static String checkedPath(String path) {
        if (path == null || path.isBlank()) {
            throw ApiException.badRequest("the file path is missing: /api/v1/sessions/{id}/files/{path}");
        }
        if (path.length() > MAX_PATH_CHARS || path.indexOf('\0') >= 0) {
            throw ApiException.badRequest("the file path must be at most " + MAX_PATH_CHARS
                    + " characters and contain no NUL");
        }
        return path;
    }
}
