package dev.agentbus.gateway.workspace;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentbus.api.UploadedFile;
import dev.agentbus.api.workspace.CommandRun;
import dev.agentbus.api.workspace.WorkspaceChange;
import dev.agentbus.api.workspace.WorkspaceFile;
import dev.agentbus.api.workspace.WorkspaceListing;
import dev.agentbus.events.Json;
import dev.agentbus.events.input.SessionInput.RunUserTool;
import dev.agentbus.events.session.EventEnvelope;
import dev.agentbus.events.session.SessionEvent.ToolCallCompleted;
import dev.agentbus.events.state.SessionState;
import dev.agentbus.events.stream.StreamChunk;
import dev.agentbus.gateway.errors.ApiException;
import dev.agentbus.gateway.files.FileTransferSettings;
import dev.agentbus.gateway.sessions.InputSender;
import dev.agentbus.gateway.sessions.SessionAccess;
import dev.agentbus.gateway.sessions.SessionDirectory;
import dev.agentbus.gateway.sessions.UserToolCalls;
import io.micronaut.http.HttpStatus;
import jakarta.inject.Singleton;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.UUID;
import java.util.function.Consumer;

/**
 * What a person does in a session's workspace, for every adapter (the HTTP routes of files and workspace, the
 * WebSocket commands): list, read, write, delete, transfer files, run commands, type into the terminal. The gateway
 * never touches a workspace itself: each operation is a sandbox tool run as a person's tool call
 * ({@code run_user_tool.v1}) through the log, and the answer waits for its {@code tool_call.completed.v1}. So every
 * operation is in the session's history, runs in order with the agent's own calls, and only while no turn runs.
 *
 * <p>The adapters check who may do what ({@link SessionAccess}) and hand over the session's state; this class turns
 * the worker's answers into results, and its refusals into the API's errors.
 */
@Singleton
public final class WorkspaceOperations {
    static final int MAX_PATH_CHARS = 1024;

    private final SessionDirectory directory;
    private final UserToolCalls calls;
    private final Duration timeout;
    private final long maxTransferBytes;

    WorkspaceOperations(SessionDirectory directory, InputSender inputs, FileTransferSettings settings) {
        this.directory = directory;
        this.calls = new UserToolCalls(directory, inputs);
        this.timeout = Duration.ofSeconds(settings.timeoutSeconds());
        this.maxTransferBytes = settings.maxBytes();
    }

    /** A workspace file as bytes, with the checksum the worker sent and the gateway checked. */
    public record Download(String path, byte[] content, String sha256, String callId) {
    }

    /** The worker's words after a terminal action (what it typed, the screen after it). */
    public record TerminalAction(String callId, String output) {
    }

    /** The largest file that can travel in or out (one Kafka record carries it). */
    public long maxTransferBytes() {
        return maxTransferBytes;
    }

    /** One directory, {@code path} relative to the workspace root ({@code null} or blank: the root). */
    public WorkspaceListing list(SessionState session, String user, String path) throws InterruptedException {
        String dir = path == null || path.isBlank() ? "." : checkedPath(path);
        idle(session, "the workspace can be listed");
        ToolCallCompleted result = completed(run(session, user, "ls", args().put("path", dir)), "listing");
        return DirectoryListings.parse(dir, result.output(), result.truncated(), result.callId());
    }

    /** A text file, whole and exact: downloaded, checked, and decoded as UTF-8 (anything else is refused). */
    public WorkspaceFile readText(SessionState session, String user, String path) throws InterruptedException {
        Download file = transferOut(session, user, checkedPath(path), "files can be read");
        try {
            String text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(file.content()))
                    .toString();
            return new WorkspaceFile(file.path(), text, file.content().length, file.sha256(), file.callId());
        } catch (CharacterCodingException e) {
            throw new ApiException(HttpStatus.UNPROCESSABLE_ENTITY, file.path() + " is not UTF-8 text ("
                    + file.content().length + " bytes); download it as bytes instead");
        }
    }

    /** A file as bytes, at most {@link #maxTransferBytes()}. */
    public Download download(SessionState session, String user, String path) throws InterruptedException {
        return transferOut(session, user, checkedPath(path), "files can be downloaded");
    }

    /** Writes {@code content} as is to {@code path}, creating directories; an existing file is backed up first. */
    public UploadedFile upload(SessionState session, String user, String path, byte[] content)
            throws InterruptedException {
        String file = checkedPath(path);
        idle(session, "files can be uploaded");
        if (content.length > maxTransferBytes) {
            throw new ApiException(HttpStatus.REQUEST_ENTITY_TOO_LARGE, "the file is " + content.length
                    + " bytes; uploads are at most " + maxTransferBytes + " bytes");
        }
        ToolCallCompleted result = completed(run(session, user, "upload", args().put("path", file)
                .put("content_base64", Base64.getEncoder().encodeToString(content))), "upload");
        return new UploadedFile(file, content.length, sha256(content), result.callId(), result.output());
    }

    /** Creates or replaces a text file (UTF-8) with the worker's {@code write} tool: a diff, a backup. */
    public WorkspaceChange write(SessionState session, String user, String path, String content)
            throws InterruptedException {
        String file = checkedPath(path);
        idle(session, "files can be written");
        ToolCallCompleted result = completed(run(session, user, "write", args().put("path", file)
                .put("content", content)), "write");
        return new WorkspaceChange(file, result.callId(), result.output(), result.diff(), result.checkpoint());
    }

    /** Deletes a file, a link, or a directory ({@code recursive}: with everything in it), after a backup. */
    public WorkspaceChange delete(SessionState session, String user, String path, boolean recursive)
            throws InterruptedException {
        String target = checkedPath(path);
        idle(session, "files can be deleted");
        ToolCallCompleted result = completed(run(session, user, "delete", args().put("path", target)
                .put("recursive", recursive)), "delete");
        return new WorkspaceChange(target, result.callId(), result.output(), result.diff(), result.checkpoint());
    }

    /**
     * Runs a command line in the session's persistent shell ({@code shell} tool) and waits for it to end.
     * {@code liveOutput} gets the command's output as the worker streams it (a live view that may miss pieces: the
     * result holds it all). A command that could not finish is a result with {@code ok} false, not an error: it did
     * run, and its output so far is worth seeing.
     *
     * @param timeoutSeconds the command's time-out, clamped by the worker to 1–120 s; null for its default
     */
    public CommandRun execute(SessionState session, String user, String command, Integer timeoutSeconds,
                              Consumer<String> liveOutput) throws InterruptedException {
        if (command == null || command.isBlank()) {
            throw ApiException.badRequest("command is required and must not be empty");
        }
        idle(session, "commands can run");
        ObjectNode args = args().put("command", command);
        if (timeoutSeconds != null) {
            args.put("timeout_seconds", timeoutSeconds);
        }
        // The worker's own limit plus the usual wait: a command may run up to 120 s before the worker answers.
        long commandSeconds = timeoutSeconds == null ? 120 : Math.clamp(timeoutSeconds, 1, 120);
        Duration wait = timeout.plusSeconds(commandSeconds);
        RunUserTool call = new RunUserTool(newCallId(), "shell", args.toString());
        Runnable unfollow = followOutput(session.sessionId(), call.callId(), liveOutput);
        UserToolCalls.Outcome outcome;
        try {
            outcome = calls.run(session.sessionId(), user, call, wait);
        } finally {
            unfollow.run();
        }
        if (outcome instanceof UserToolCalls.Outcome.Completed c && !c.result().ok()
                && c.result().refusal() == null && !c.result().interrupted()) {
            ToolCallCompleted r = c.result();
            return new CommandRun(r.callId(), command, false, null, r.output(), r.error(), r.truncated(),
                    r.durationMs());
        }
        ToolCallCompleted r = completed(outcome, "command");
        return new CommandRun(r.callId(), command, true, CommandOutputs.exitCode(r.output()), r.output(), null,
                r.truncated(), r.durationMs());
    }

    /**
     * A terminal action in the session's sandbox: {@code tmux_new} (start a program in a pane), {@code vm_input}
     * (type a line), {@code vm_keys} (press approved keys), {@code restart_terminal}. The arguments are the tool's
     * (docs/tools.md); the worker checks them and says what is wrong.
     */
    public TerminalAction terminal(SessionState session, String user, String tool, ObjectNode arguments)
            throws InterruptedException {
        if (!List.of("tmux_new", "tmux_read", "vm_input", "vm_keys", "restart_terminal").contains(tool)) {
            throw new IllegalArgumentException("not a terminal tool: " + tool);
        }
        idle(session, "the terminal can be used");
        ToolCallCompleted result = completed(run(session, user, tool, arguments), tool);
        return new TerminalAction(result.callId(), result.output());
    }

    private Download transferOut(SessionState session, String user, String file, String advice)
            throws InterruptedException {
        idle(session, advice);
        ToolCallCompleted result = completed(run(session, user, "download", args().put("path", file)), "download");
        Checked checked = decode(result.output());
        return new Download(file, checked.content(), checked.sha256(), result.callId());
    }

    private UserToolCalls.Outcome run(SessionState session, String user, String tool, ObjectNode arguments)
            throws InterruptedException {
        return calls.run(session.sessionId(), user, new RunUserTool(newCallId(), tool, arguments.toString()), timeout);
    }

    /** Live output of one call, from the session's stream; subscribed before the call is sent, so none is lost. */
    private Runnable followOutput(String sessionId, String callId, Consumer<String> liveOutput) {
        if (liveOutput == null) {
            return () -> { };
        }
        long after = directory.state(sessionId).map(SessionState::lastSeq).orElse(0L);
        return directory.subscribe(sessionId, after, new SessionDirectory.Subscriber() {
            @Override
            public void onEvent(EventEnvelope event) {
                // the result is what UserToolCalls waits for
            }

            @Override
            public void onDelta(StreamChunk chunk) {
                if (chunk.kind() == StreamChunk.Kind.OUTPUT && callId.equals(chunk.ref()) && chunk.text() != null) {
                    liveOutput.accept(chunk.text());
                }
            }
        });
    }

    /**
     * The call's result, or the error that says why there is none: a refusal of the safety layer is 403, a missing
     * file 404, a file over the limit 413, a worker that stopped during the call 503, any other failure (a
     * directory, bad input) 422; a call the orchestrator did not take is 409, no answer in time 504.
     */
    static ToolCallCompleted completed(UserToolCalls.Outcome outcome, String what) {
        return switch (outcome) {
            case UserToolCalls.Outcome.Completed c when c.result().ok() -> c.result();
            case UserToolCalls.Outcome.Completed c when c.result().refusal() != null ->
                    throw new ApiException(HttpStatus.FORBIDDEN, c.result().refusal());
            case UserToolCalls.Outcome.Completed c -> {
                String error = c.result().error() == null ? what + " failed" : c.result().error();
                HttpStatus status = error.startsWith("file not found") || error.startsWith("no such file")
                        ? HttpStatus.NOT_FOUND
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

    private record Checked(byte[] content, String sha256) {
    }

    /** The download tool's output: {@code sha256:<hex> bytes:<n>}, a newline, the base64 content. */
    private static Checked decode(String output) {
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
        return new Checked(content, sha);
    }

    private static void idle(SessionState state, String advice) {
        if (!state.acceptsUserTool()) {
            throw SessionAccess.busy(state, advice + " once the turn has ended");
        }
    }

    /** A path relative to the workspace; the worker applies the workspace's path rules to it. */
    static String checkedPath(String path) {
        if (path == null || path.isBlank()) {
            throw ApiException.badRequest("path is required: a path relative to the workspace root");
        }
        if (path.length() > MAX_PATH_CHARS || path.indexOf('\0') >= 0) {
            throw ApiException.badRequest("the path must be at most " + MAX_PATH_CHARS
                    + " characters and contain no NUL");
        }
        return path;
    }

    private static ObjectNode args() {
        return Json.mapper().createObjectNode();
    }

    private static String newCallId() {
        return "user-" + UUID.randomUUID();
    }

    static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }
}
