package dev.agentbus.gateway.websocket;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentbus.api.UploadedFile;
import dev.agentbus.api.workspace.CommandRun;
import dev.agentbus.api.workspace.WorkspaceChange;
import dev.agentbus.api.workspace.WorkspaceFile;
import dev.agentbus.api.workspace.WorkspaceListing;
import dev.agentbus.events.Json;
import dev.agentbus.events.input.SessionInput;
import dev.agentbus.events.state.Message;
import dev.agentbus.events.state.SessionState;
import dev.agentbus.events.state.ToolCallView;
import dev.agentbus.gateway.errors.ApiException;
import dev.agentbus.gateway.memory.UserMemory;
import dev.agentbus.gateway.openai.AgentTurns;
import dev.agentbus.gateway.openai.TurnTranscript;
import dev.agentbus.gateway.sessions.InputSender;
import dev.agentbus.gateway.sessions.SessionAccess;
import dev.agentbus.gateway.sessions.SessionDirectory;
import dev.agentbus.gateway.workspace.WorkspaceOperations;
import io.micronaut.http.HttpStatus;
import jakarta.inject.Singleton;

import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

/**
 * The commands of {@code /ws}, with OS-Agent's names, arguments and answers (docs/websocket.md), each a thin
 * adapter of the use case that HTTP uses too: {@link AgentTurns} for a chat, {@link WorkspaceOperations} for files,
 * commands and the terminal (each a person's tool call in the session's log), {@link UserMemory} for memory. Every
 * command checks the caller's access to the session again, as an HTTP request would: reads need a session the
 * caller may see, everything else one the caller may act in.
 */
@Singleton
class WebSocketCommands {
    static final int MAX_PROMPT_CHARS = 256 * 1024;
    static final int MAX_NOTIFICATION_CHARS = 4096;
    private static final int SNIPPET_CHARS = 200;

    private final SessionAccess sessions;
    private final WorkspaceOperations workspace;
    private final UserMemory memory;
    private final AgentTurns turns;
    private final InputSender inputs;

    WebSocketCommands(SessionAccess sessions, WorkspaceOperations workspace, UserMemory memory,
                      SessionDirectory directory, InputSender inputs) {
        this.sessions = sessions;
        this.workspace = workspace;
        this.memory = memory;
        this.turns = new AgentTurns(directory, inputs);
        this.inputs = inputs;
    }

    /** What {@code download_file} answers: the file itself, since a remote client has no host path to go to. */
    record DownloadedFile(@JsonProperty("file_name") String fileName, String path,
                          @JsonProperty("file_data") String fileData, long bytes, String sha256) {
    }

    /** One entry of {@code list_sessions_info}. */
    record SessionInfo(String name, String title, String status, Instant updatedAt,
                       @JsonProperty("last_message") String lastMessage) {
    }

    /** One entry of {@code list_documents}: a file a person uploaded, and where. */
    record Document(@JsonProperty("file_path") String filePath, @JsonProperty("original_name") String originalName,
                    String session, String callId) {
    }

    CommandDispatcher dispatcher() {
        Map<String, CommandHandler> h = new LinkedHashMap<>();
        h.put("chat", this::chat);
        h.put("team_chat", this::chat);
        h.put("cancel", this::cancel);
        h.put("upload_document", this::uploadDocument);
        h.put("list_dir", this::listDir);
        h.put("read_file", this::readFile);
        h.put("write_file", this::writeFile);
        h.put("delete_path", this::deletePath);
        h.put("download_file", this::downloadFile);
        h.put("vm_execute", call -> execute(call, false));
        h.put("vm_execute_stream", call -> execute(call, true));
        h.put("vm_input", this::vmInput);
        h.put("vm_keys", this::vmKeys);
        h.put("restart_terminal", this::restartTerminal);
        h.put("send_notification", this::sendNotification);
        h.put("list_sessions", this::listSessions);
        h.put("list_sessions_info", this::listSessionsInfo);
        h.put("list_documents", this::listDocuments);
        h.put("get_memory", call -> Reply.Result.of(call.id(), call.name(), memory.get(call.userId()).content()));
        h.put("set_memory", this::setMemory);
        h.put("reset_memory", call -> Reply.Result.of(call.id(), call.name(),
                memory.reset(call.userId()).content()));
        return new CommandDispatcher(h);
    }

    // --- the agent ---

    /**
     * A message to the agent; the turn streams as {@code content} and {@code reasoning} deltas (the transcript the
     * OpenAI endpoint streams too) and ends with the whole answer.
     */
    private Reply chat(Call call) throws InterruptedException {
        String text = call.optionalString("prompt").or(() -> call.optionalString("text"))
                .orElseThrow(() -> ApiException.badRequest("prompt is required (a string)"));
        if (text.isBlank()) {
            throw ApiException.badRequest("prompt must not be empty");
        }
        if (text.length() > MAX_PROMPT_CHARS) {
            throw new ApiException(HttpStatus.REQUEST_ENTITY_TOO_LARGE, "prompt is longer than " + MAX_PROMPT_CHARS
                    + " characters");
        }
        SessionState session = sessions.writable(call.sessionId(), call.request());
        if (!session.acceptsMessage()) {
            throw SessionAccess.busy(session, "cancel the turn or wait for it to end");
        }
        CompletableFuture<Reply> end = new CompletableFuture<>();
        StringBuilder content = new StringBuilder();
        AgentTurns.Started started = turns.post(session, call.userId(), text, output -> {
            switch (output) {
                case TurnTranscript.Output.Content c -> {
                    content.append(c.text());
                    call.send(new Reply.Delta(call.id(), call.name(), "content", c.text()));
                }
                case TurnTranscript.Output.Reasoning r ->
                        call.send(new Reply.Delta(call.id(), call.name(), "reasoning", r.text()));
                case TurnTranscript.Output.Finished f -> end.complete(f.error() == null
                        ? Reply.Result.of(call.id(), call.name(), content.toString())
                                .withFinishReason(f.finishReason())
                        : new Reply.Failure(call.id(), call.name(), f.error().startsWith("the message was refused")
                                ? "conflict" : "bad_gateway", f.error()));
            }
        });
        try {
            return end.get();
        } catch (ExecutionException e) {
            throw new IllegalStateException("the turn's follower failed", e.getCause());
        } finally {
            started.unfollow().run();
        }
    }

    private Reply cancel(Call call) {
        SessionState session = sessions.writable(call.sessionId(), call.request());
        if (!session.acceptsCancel()) {
            throw new ApiException(HttpStatus.CONFLICT, "session " + session.sessionId() + " has no running turn "
                    + "to cancel");
        }
        inputs.send(session.sessionId(), call.userId(), new SessionInput.CancelTurn());
        return Reply.Result.of(call.id(), call.name(), "ok");
    }

    // --- files ---

    private Reply uploadDocument(Call call) throws InterruptedException {
        if (call.args().has("file_path")) {
            throw ApiException.badRequest("file_path names a file on the server's host, which a remote client has "
                    + "no business reaching: send the file itself, as file_data (base64) with file_name, or as a "
                    + "binary message");
        }
        String name = call.string("file_name");
        String path = call.optionalString("path").orElse(name);
        byte[] content = call.frame().payload();
        if (content == null) {
            try {
                content = Base64.getDecoder().decode(call.string("file_data"));
            } catch (IllegalArgumentException e) {
                throw ApiException.badRequest("file_data is not base64: " + e.getMessage());
            }
        }
        UploadedFile uploaded = workspace.upload(sessions.writable(call.sessionId(), call.request()),
                call.userId(), path, content);
        return Reply.Result.of(call.id(), call.name(), uploaded.path()).withCallId(uploaded.callId())
                .withOutput(uploaded.result());
    }

    /** OS-Agent's shape: {@code [[name, is_dir], …]}; a link is not a directory (links are not followed). */
    private Reply listDir(Call call) throws InterruptedException {
        WorkspaceListing listing = workspace.list(sessions.readable(call.sessionId(), call.request()),
                call.userId(), call.optionalString("path").orElse(null));
        List<List<Object>> entries = listing.entries().stream()
                .map(e -> List.<Object>of(e.name(), e.isDirectory())).toList();
        Reply.Result result = Reply.Result.of(call.id(), call.name(), entries).withCallId(listing.callId());
        return listing.truncated() ? result.withOutput("the directory has more entries than were listed") : result;
    }

    private Reply readFile(Call call) throws InterruptedException {
        WorkspaceFile file = workspace.readText(sessions.readable(call.sessionId(), call.request()), call.userId(),
                call.string("path"));
        return Reply.Result.of(call.id(), call.name(), file.content()).withCallId(file.callId());
    }

    private Reply writeFile(Call call) throws InterruptedException {
        String path = call.string("path");
        String content = call.string("content");
        WorkspaceChange change = workspace.write(sessions.writable(call.sessionId(), call.request()),
                call.userId(), path, content);
        return Reply.Result.of(call.id(), call.name(), "Saved").withCallId(change.callId())
                .withOutput(change.result());
    }

    /** A file, or a directory with everything in it (OS-Agent removes either); {@code recursive: false} refuses. */
    private Reply deletePath(Call call) throws InterruptedException {
        String path = call.string("path");
        WorkspaceChange change = workspace.delete(sessions.writable(call.sessionId(), call.request()),
                call.userId(), path, call.flag("recursive", true));
        return Reply.Result.of(call.id(), call.name(), "Deleted").withCallId(change.callId())
                .withOutput(change.result());
    }

    private Reply downloadFile(Call call) throws InterruptedException {
        if (call.args().hasNonNull("dest")) {
            throw ApiException.badRequest("dest names a directory on the server's host, which a remote client has "
                    + "no business reaching: the file comes back in the answer, as file_data (base64)");
        }
        WorkspaceOperations.Download file = workspace.download(sessions.readable(call.sessionId(), call.request()),
                call.userId(), call.string("path"));
        String name = file.path().substring(file.path().lastIndexOf('/') + 1);
        return Reply.Result.of(call.id(), call.name(), new DownloadedFile(name, file.path(),
                Base64.getEncoder().encodeToString(file.content()), file.content().length, file.sha256()))
                .withCallId(file.callId());
    }

    // --- commands and the terminal ---

    /**
     * A command line in the session's persistent shell. Streamed ({@code vm_execute_stream}): its output as
     * {@code output} deltas, line by line, or as it comes with {@code raw}. With {@code interactive} it starts in a
     * tmux pane instead, where {@code vm_input} and {@code vm_keys} reach it.
     */
    private Reply execute(Call call, boolean streamed) throws InterruptedException {
        String command = call.string("command");
        Integer timeout = call.optionalInt("timeout").or(() -> call.optionalInt("timeout_seconds")).orElse(null);
        SessionState session = sessions.writable(call.sessionId(), call.request());
        if (streamed && call.flag("interactive", false)) {
            ObjectNode args = Json.mapper().createObjectNode().put("command", command);
            WorkspaceOperations.TerminalAction started = workspace.terminal(session, call.userId(), "tmux_new", args);
            return Reply.Result.of(call.id(), call.name(), "started").withCallId(started.callId())
                    .withOutput(started.output());
        }
        LiveOutput live = streamed ? new LiveOutput(call, call.flag("raw", false)) : null;
        CommandRun run = workspace.execute(session, call.userId(), command, timeout, live);
        if (live != null) {
            live.finish();
        }
        if (!run.ok()) {
            return new Reply.Failure(call.id(), call.name(), "command_failed", run.error())
                    .withRun(run.callId(), run.output());
        }
        return Reply.Result.of(call.id(), call.name(), run.output()).withCallId(run.callId())
                .withExitCode(run.exitCode());
    }

    /**
     * Types into the program in a tmux pane (the current window by default, where an {@code interactive}
     * {@code vm_execute_stream} started it): one line, Enter pressed after it unless {@code enter: false}. A trailing
     * newline means Enter, as when writing to a program's standard input.
     */
    private Reply vmInput(Call call) throws InterruptedException {
        String data = call.string("data");
        boolean enter = call.flag("enter", true);
        if (data.endsWith("\n")) {
            data = data.substring(0, data.length() - 1);
            enter = true;
        }
        ObjectNode args = Json.mapper().createObjectNode().put("data", data).put("enter", enter);
        call.optionalString("target").ifPresent(t -> args.put("target", t));
        return terminal(call, "vm_input", args, "ok");
    }

    /**
     * Keystrokes: {@code keys}, a list of approved key names ({@code Enter}, {@code C-c}, {@code Up} …), or OS-Agent's
     * {@code data}, text typed as it is without Enter. {@code delay} (seconds between characters) is not supported:
     * the text is typed at once.
     */
    private Reply vmKeys(Call call) throws InterruptedException {
        ObjectNode args = Json.mapper().createObjectNode();
        call.optionalString("target").ifPresent(t -> args.put("target", t));
        var keys = call.optionalStrings("keys");
        if (keys.isPresent()) {
            keys.get().forEach(args.putArray("keys")::add);
            return terminal(call, "vm_keys", args, "ok");
        }
        String data = call.optionalString("data").orElseThrow(() -> ApiException.badRequest(
                "keys (an array of key names such as Enter or C-c) or data (text to type) is required"));
        args.put("data", data).put("enter", false);
        return terminal(call, "vm_input", args, "ok");
    }

    private Reply restartTerminal(Call call) throws InterruptedException {
        return terminal(call, "restart_terminal", Json.mapper().createObjectNode(), "restarted");
    }

    private Reply terminal(Call call, String tool, ObjectNode args, String answer) throws InterruptedException {
        WorkspaceOperations.TerminalAction done = workspace.terminal(sessions.writable(call.sessionId(),
                call.request()), call.userId(), tool, args);
        return Reply.Result.of(call.id(), call.name(), answer).withCallId(done.callId()).withOutput(done.output());
    }

    // --- notifications and sessions ---

    /** Recorded in the session's log and delivered to everyone following it; "ok" once Kafka has it. */
    private Reply sendNotification(Call call) {
        String message = call.string("message");
        if (message.isBlank()) {
            throw ApiException.badRequest("message must not be empty");
        }
        if (message.length() > MAX_NOTIFICATION_CHARS) {
            throw new ApiException(HttpStatus.REQUEST_ENTITY_TOO_LARGE, "message is longer than "
                    + MAX_NOTIFICATION_CHARS + " characters");
        }
        SessionState session = sessions.writable(call.sessionId(), call.request());
        inputs.send(session.sessionId(), call.userId(), new SessionInput.PostNotification(message));
        return Reply.Result.of(call.id(), call.name(), "ok");
    }

    private Reply listSessions(Call call) {
        return Reply.Result.of(call.id(), call.name(), sessions.visible(call.request()).stream()
                .map(SessionState::sessionId).toList());
    }

    private Reply listSessionsInfo(Call call) {
        return Reply.Result.of(call.id(), call.name(), sessions.visible(call.request()).stream()
                .map(s -> new SessionInfo(s.sessionId(), s.title(), s.status().name(), s.updatedAt(), lastMessage(s)))
                .toList());
    }

    /** The files people uploaded to the sessions the caller may see, newest session first. */
    private Reply listDocuments(Call call) {
        List<Document> documents = new ArrayList<>();
        for (SessionState s : sessions.visible(call.request())) {
            for (ToolCallView c : s.toolCalls().values()) {
                if (c.byUser() && c.name().equals("upload") && Boolean.TRUE.equals(c.ok())) {
                    String path = pathOf(c.arguments());
                    if (path != null) {
                        documents.add(new Document(path, path.substring(path.lastIndexOf('/') + 1), s.sessionId(),
                                c.callId()));
                    }
                }
            }
        }
        return Reply.Result.of(call.id(), call.name(), documents);
    }

    private Reply setMemory(Call call) throws InterruptedException {
        String content = call.optionalString("memory").or(() -> call.optionalString("content"))
                .orElseThrow(() -> ApiException.badRequest("memory is required (a string; it may be empty)"));
        return Reply.Result.of(call.id(), call.name(), memory.set(call.userId(), content).content());
    }

    private static String lastMessage(SessionState s) {
        for (int i = s.messages().size() - 1; i >= 0; i--) {
            String text = switch (s.messages().get(i)) {
                case Message.User u -> u.text();
                case Message.Assistant a -> a.content();
                default -> null;
            };
            if (text != null && !text.isBlank()) {
                String line = text.strip().replaceAll("\\s+", " ");
                return line.length() > SNIPPET_CHARS ? line.substring(0, SNIPPET_CHARS) + "…" : line;
            }
        }
        return "";
    }

    private static String pathOf(String arguments) {
        try {
            JsonNode path = Json.mapper().readTree(arguments).get("path");
            return path != null && path.isTextual() ? path.asText() : null;
        } catch (IOException e) {
            return null;
        }
    }

    /**
     * A streamed command's output as {@code output} deltas, whole lines unless {@code raw}. The result ends the
     * stream: pieces that arrive after it (output and results come on different topics) are dropped, since the
     * result holds the whole output.
     */
    private static final class LiveOutput implements java.util.function.Consumer<String> {
        private final Call call;
        private final LineBuffer lines;
        private boolean finished;

        LiveOutput(Call call, boolean raw) {
            this.call = call;
            this.lines = raw ? null : new LineBuffer();
        }

        @Override
        public synchronized void accept(String piece) {
            if (finished) {
                return;
            }
            if (lines == null) {
                send(piece);
            } else {
                lines.add(piece).forEach(this::send);
            }
        }

        synchronized void finish() {
            if (lines != null) {
                String rest = lines.rest();
                if (!rest.isEmpty()) {
                    send(rest);
                }
            }
            finished = true;
        }

        private void send(String text) {
            call.send(new Reply.Delta(call.id(), call.name(), "output", text));
        }
    }
}
