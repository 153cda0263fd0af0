package dev.agentbus.gateway.files;

import dev.agentbus.api.ApiJson;
import dev.agentbus.api.UploadedFile;
import dev.agentbus.events.Json;
import dev.agentbus.events.input.SessionInput.RunUserTool;
import dev.agentbus.events.session.SessionEvent.ToolCallCompleted;
import dev.agentbus.events.state.SessionState;
import dev.agentbus.gateway.errors.ApiException;
import dev.agentbus.gateway.sessions.InputSender;
import dev.agentbus.gateway.sessions.SessionAccess;
import dev.agentbus.gateway.sessions.SessionDirectory;
import dev.agentbus.gateway.sessions.UserToolCalls;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.HttpStatus;
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

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.Base64;
import java.util.HexFormat;
import java.util.UUID;

import static dev.agentbus.gateway.auth.Callers.userOf;

/**
 * Files in and out of a session's workspace (OS-Agent's upload_document and download_file), see docs/api.md#files.
 * The gateway never touches a workspace: it runs the user-only tools {@code upload} and {@code download} through the
 * log, like any tool call, and waits for the result. So a transfer is recorded in the session's history, happens in
 * order with the agent's own calls, and only while no turn runs.
 */
@Controller("/api/v1/sessions/{id}/files")
@ExecuteOn(TaskExecutors.BLOCKING)
class FilesController {
    static final int MAX_PATH_CHARS = 1024;

    private final SessionAccess sessions;
    private final UserToolCalls calls;
    private final Duration timeout;
    private final long maxBytes;

    FilesController(SessionDirectory directory, SessionAccess sessions, InputSender inputs,
                    FileTransferSettings settings) {
        this.sessions = sessions;
        this.calls = new UserToolCalls(directory, inputs);
        this.timeout = Duration.ofSeconds(settings.timeoutSeconds());
        this.maxBytes = settings.maxBytes();
    }

    /** Writes the request body, as is, to {@code path} in the workspace. */
    @Put("/{+path}")
    @Consumes({MediaType.APPLICATION_OCTET_STREAM, MediaType.ALL})
    @Produces(MediaType.APPLICATION_JSON)
    public String upload(String id, @PathVariable("path") String path, @Body @Nullable byte[] body,
                         HttpRequest<?> request) throws InterruptedException {
        String file = checkedPath(path);
        byte[] content = body == null ? new byte[0] : body;
        idle(sessions.writable(id, request), "uploaded");
        if (content.length > maxBytes) {
            throw new ApiException(HttpStatus.REQUEST_ENTITY_TOO_LARGE, "the file is " + content.length
                    + " bytes; uploads are at most " + maxBytes + " bytes");
        }
        String args = Json.mapper().createObjectNode().put("path", file)
                .put("content_base64", Base64.getEncoder().encodeToString(content)).toString();
        ToolCallCompleted result = completed(run(id, request, "upload", args), "upload");
        return ApiJson.write(new UploadedFile(file, content.length, sha256(content), result.callId(),
                result.output()));
    }

    /** The workspace file at {@code path}, as bytes. */
    @Get("/{+path}")
    @Produces(MediaType.APPLICATION_OCTET_STREAM)
    public HttpResponse<byte[]> download(String id, @PathVariable("path") String path, HttpRequest<?> request)
            throws InterruptedException {
        String file = checkedPath(path);
        idle(sessions.writable(id, request), "downloaded");
        String args = Json.mapper().createObjectNode().put("path", file).toString();
        ToolCallCompleted result = completed(run(id, request, "download", args), "download");
        byte[] content = decode(result.output());
        String name = file.substring(file.lastIndexOf('/') + 1).replaceAll("[^A-Za-z0-9._ -]", "_");
        return HttpResponse.ok(content).contentType(MediaType.APPLICATION_OCTET_STREAM_TYPE)
                .header("Content-Disposition", "attachment; filename=\"" + name + "\"");
    }

    private UserToolCalls.Outcome run(String id, HttpRequest<?> request, String tool, String args)
            throws InterruptedException {
        return calls.run(id, userOf(request), new RunUserTool("user-" + UUID.randomUUID(), tool, args), timeout);
    }

    /**
     * The call's result, or the error that says why there is none: a refusal of the safety layer is 403, a missing
     * file 404, a file over the limit 413, any other failure (a directory, bad input) 422.
     */
    private ToolCallCompleted completed(UserToolCalls.Outcome outcome, String what) {
        return switch (outcome) {
            case UserToolCalls.Outcome.Completed c when c.result().ok() -> c.result();
            case UserToolCalls.Outcome.Completed c when c.result().refusal() != null ->
                    throw new ApiException(HttpStatus.FORBIDDEN, c.result().refusal());
            case UserToolCalls.Outcome.Completed c -> {
                String error = c.result().error() == null ? what + " failed" : c.result().error();
                HttpStatus status = error.startsWith("file not found") ? HttpStatus.NOT_FOUND
                        : error.contains("too large") || error.contains("more than the limit")
                        ? HttpStatus.REQUEST_ENTITY_TOO_LARGE
                        : c.result().interrupted() ? HttpStatus.SERVICE_UNAVAILABLE : HttpStatus.UNPROCESSABLE_ENTITY;
                throw new ApiException(status, error);
            }
            case UserToolCalls.Outcome.Rejected r -> throw new ApiException(HttpStatus.CONFLICT, r.reason());
            case UserToolCalls.Outcome.TimedOut t -> throw new ApiException(HttpStatus.GATEWAY_TIMEOUT,
                    "no sandbox-worker answered within " + t.waited().toSeconds() + " s; the " + what + " is "
                            + "recorded and runs when a worker takes it, so look at the session's log before "
                            + "trying again");
        };
    }

    /** The download tool's output: {@code sha256:<hex> bytes:<n>}, a newline, the base64 content. */
    private static byte[] decode(String output) {
        int newline = output == null ? -1 : output.indexOf('\n');
        if (newline < 0 || !output.startsWith("sha256:")) {
            throw new ApiException(HttpStatus.BAD_GATEWAY, "the sandbox-worker's answer is not a file");
        }
        String sha = output.substring("sha256:".length(), newline).split(" ")[0];
        byte[] content;
        try {
            content = Base64.getDecoder().decode(output.substring(newline + 1).strip());
        } catch (IllegalArgumentException e) {
            content = null;
        }
        if (content == null || !sha256(content).equals(sha)) {
            // The worker masks secrets in every output before it is logged; masking inside the base64 text would
            // hand out a different file, so none is handed out.
            throw new ApiException(HttpStatus.BAD_GATEWAY, "the file arrived altered (the worker masks anything "
                    + "that looks like a secret in tool output); it was not sent");
        }
        return content;
    }

    private static void idle(SessionState state, String verb) {
        if (!state.acceptsUserTool()) {
            throw SessionAccess.busy(state, "files can be " + verb + " once the turn has ended");
        }
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

    private static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }
}
