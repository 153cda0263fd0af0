package dev.agentbus.gateway.transfer;

import dev.agentbus.api.ApiJson;
import dev.agentbus.api.ForkedSession;
import dev.agentbus.api.Rewound;
import dev.agentbus.events.input.SessionInput;
import dev.agentbus.events.session.EventEnvelope;
import dev.agentbus.events.state.SessionState;
import dev.agentbus.events.state.ToolCallView;
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
import io.micronaut.http.annotation.Post;
import io.micronaut.http.annotation.Produces;
import io.micronaut.http.annotation.QueryValue;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;

import java.time.Duration;
import java.util.List;
import java.util.UUID;

import static dev.agentbus.gateway.auth.Callers.userOf;

/**
 * Moving sessions and their history around: export a log as JSON Lines, import one as a new session, fork a session
 * at a seq, and rewind a session's workspace to a checkpoint. See docs/replay-and-fork.md.
 *
 * <p>The gateway never writes events: a fork and an import are a {@code fork_session.v1} input (the orchestrator
 * stays the only writer of the log and gives the new session its {@code session.forked.v1}), a rewind is the user
 * tool {@code rewind} run through {@code run_user_tool.v1}, by the sandbox-worker, like any other call.
 */
@Controller("/api/v1/sessions")
@ExecuteOn(TaskExecutors.BLOCKING)
class TransferController {
    static final String NDJSON = "application/x-ndjson";
    private static final int MAX_TITLE_CHARS = 200;
    private static final Duration AWAIT_SESSION = Duration.ofSeconds(10);
    /** Longer than a rewind of a large workspace should take; after it the answer is 202 and the log tells. */
    private static final Duration AWAIT_REWIND = Duration.ofSeconds(60);

    private final SessionDirectory directory;
    private final SessionAccess sessions;
    private final UserToolCalls calls;
    private final InputSender inputs;

    public TransferController(SessionDirectory directory, SessionAccess sessions, InputSender inputs) {
        this.directory = directory;
        this.sessions = sessions;
        this.calls = new UserToolCalls(directory, inputs);
        this.inputs = inputs;
    }

    public record ForkRequest(@Nullable Long atSeq, @Nullable String title) {
    }

    public record RewindRequest(@Nullable String checkpoint) {
    }

    /** The whole log, one stored envelope per line: the file {@code import} and {@code agentbus replay} read. */
    @Get(value = "/{id}/export", produces = NDJSON)
    public HttpResponse<String> export(String id, HttpRequest<?> request) {
        return HttpResponse.ok(JsonlLog.write(sessions.shownLog(id, request)))
                .header("Content-Disposition", "attachment; filename=\"" + id + ".jsonl\"");
    }

    /**
     * A new session from an exported log: forked from the file's session at its last seq, with a new id and owned
     * by the caller. The workspace starts empty (the files were on the machine the log came from).
     */
    @Post(value = "/import", consumes = {NDJSON, "application/jsonl", MediaType.TEXT_PLAIN,
            MediaType.APPLICATION_OCTET_STREAM})
    @Produces(MediaType.APPLICATION_JSON)
    public HttpResponse<String> importLog(@Body @Nullable String body, @QueryValue @Nullable String title,
                                          HttpRequest<?> request) throws InterruptedException {
        List<EventEnvelope> log;
        try {
            log = JsonlLog.read(body);
        } catch (JsonlLog.BadLine e) {
            throw ApiException.badRequest(e.getMessage());
        }
        checkTitle(title);
        SessionInput.ForkSession fork = Forks.imported(log, title);
        return create(fork, request);
    }

    /** A new session whose log starts with the source's state at {@code atSeq}; the source is not touched. */
    @Post("/{id}/fork")
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public HttpResponse<String> fork(String id, @Body @Nullable ForkRequest body, HttpRequest<?> request)
            throws InterruptedException {
        SessionState source = sessions.readable(id, request);
        if (body == null || body.atSeq() == null) {
            throw ApiException.badRequest("atSeq is required: the seq of " + id + " to fork at (1 to "
                    + source.lastSeq() + ")");
        }
        checkTitle(body.title());
        SessionInput.ForkSession fork;
        try {
            // What the caller may see of it: a group member's fork does not carry the owner's memory over.
            fork = Forks.at(sessions.shownLog(id, request), body.atSeq(), body.title());
        } catch (IllegalArgumentException e) {
            throw ApiException.badRequest(e.getMessage());
        }
        return create(fork, request);
    }

    /**
     * Puts the workspace back to a checkpoint of the session, by running the user tool {@code rewind} and waiting
     * for its result. The rewind is a call in the log like any other, and is itself checkpointed.
     */
    @Post("/{id}/rewind")
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public HttpResponse<String> rewind(String id, @Body @Nullable RewindRequest body, HttpRequest<?> request)
            throws InterruptedException {
        SessionState state = sessions.writable(id, request);
        String wanted = body == null || body.checkpoint() == null ? "" : body.checkpoint().strip();
        if (wanted.isEmpty()) {
            throw ApiException.badRequest("checkpoint is required: an id from the checkpoint of one of the "
                    + "session's tool call results");
        }
        String checkpoint = knownCheckpoint(state, wanted);
        if (!state.acceptsUserTool()) {
            throw SessionAccess.busy(state, "cancel the turn or wait for it to end before rewinding");
        }
        String callId = "call_" + UUID.randomUUID();
        String arguments = dev.agentbus.events.Json.mapper().createObjectNode().put("checkpoint", checkpoint)
                .toString();
        UserToolCalls.Outcome outcome = calls.run(id, userOf(request),
                new SessionInput.RunUserTool(callId, "rewind", arguments), AWAIT_REWIND);
        return switch (outcome) {
            case UserToolCalls.Outcome.TimedOut t ->
                    HttpResponse.accepted().body(ApiJson.write(Rewound.pending(callId)));
            case UserToolCalls.Outcome.Rejected r ->
                    throw new ApiException(HttpStatus.CONFLICT, "the session rejected the rewind: " + r.reason());
            case UserToolCalls.Outcome.Completed c when !c.result().ok() -> throw ApiException.badRequest(
                    c.result().error() == null ? "the rewind failed" : c.result().error());
            case UserToolCalls.Outcome.Completed c -> HttpResponse.ok(ApiJson.write(
                    Rewound.done(callId, checkpoint, c.result().output(), c.result().checkpoint(), c.seq())));
        };
    }

    /** Sends the fork and answers once the new session is in the view (201), or after 10 s as pending (202). */
    private HttpResponse<String> create(SessionInput.ForkSession fork, HttpRequest<?> request)
            throws InterruptedException {
        String newId = UUID.randomUUID().toString();
        inputs.send(newId, userOf(request), fork);
        ForkedSession answer = new ForkedSession(newId, fork.fromSessionId(), fork.atSeq(), fork.checkpoint(), null);
        if (directory.awaitSession(newId, AWAIT_SESSION)) {
            return HttpResponse.created(ApiJson.write(answer));
        }
        return HttpResponse.accepted().body(ApiJson.write(answer.pending()));
    }

    /**
     * The full id of a checkpoint the session's log knows (its own calls', and those it was forked with), for an id
     * or a unique prefix of one: a rewind to anything else would only fail later, with a vaguer message.
     */
    private static String knownCheckpoint(SessionState state, String wanted) {
        List<String> matches = state.toolCalls().values().stream().map(ToolCallView::checkpoint)
                .filter(c -> c != null && (c.equals(wanted) || (wanted.length() >= 7 && c.startsWith(wanted))))
                .distinct().toList();
        if (matches.size() == 1) {
            return matches.getFirst();
        }
        if (matches.isEmpty()) {
            throw ApiException.badRequest("no checkpoint " + wanted + " in session " + state.sessionId()
                    + "; its checkpoints are in the results of its tool calls (agentbus replay shows them)");
        }
        throw ApiException.badRequest("checkpoint " + wanted + " is ambiguous: " + String.join(", ", matches));
    }

    private static void checkTitle(String title) {
        if (title != null && title.strip().length() > MAX_TITLE_CHARS) {
            throw ApiException.badRequest("title is longer than " + MAX_TITLE_CHARS + " characters");
        }
    }
}
