package dev.agentbus.gateway.sessions;

import dev.agentbus.api.AcceptedInput;
import dev.agentbus.api.ApiJson;
import dev.agentbus.api.CreatedSession;
import dev.agentbus.api.SessionDetails;
import dev.agentbus.events.models.ModelChoice;
import dev.agentbus.events.models.Sampling;
import dev.agentbus.gateway.models.SamplingRequest;
import dev.agentbus.api.SessionListEntry;
import dev.agentbus.events.codec.EventCodec;
import dev.agentbus.events.input.SessionInput;
import dev.agentbus.events.session.PermissionMode;
import dev.agentbus.events.state.SessionState;
import dev.agentbus.gateway.context.SystemPrompts;
import dev.agentbus.gateway.errors.ApiException;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Consumes;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Delete;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.Post;
import io.micronaut.http.annotation.Produces;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;

import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.stream.Collectors;

import static dev.agentbus.gateway.auth.Callers.userOf;

/**
 * Sessions over HTTP: create, send a message, cancel, list, show, and the raw log. Writes go to
 * {@code agentbus.session-inputs}; reads come from the {@link SessionDirectory}. Answers are the records of the api
 * module, never the internal state itself. See docs/api.md.
 */
@Controller("/api/v1/sessions")
@ExecuteOn(TaskExecutors.BLOCKING)
class SessionsController {
    static final int MAX_TITLE_CHARS = 200;
    static final int MAX_MESSAGE_CHARS = 256 * 1024;

    private final SessionDirectory directory;
    private final SessionAccess sessions;
    private final InputSender inputs;

    public SessionsController(SessionDirectory directory, SessionAccess sessions, InputSender inputs) {
        this.directory = directory;
        this.sessions = sessions;
        this.inputs = inputs;
    }

    /**
     * {@code mode}: the session's permission mode (auto, normal or manual); absent for the installation default.
     * {@code preset} and {@code systemPrompt}: the session's own system prompt (docs/api.md#context); absent for the
     * installation's. {@code planFirst}: plan-first mode, tools wait for a plan the user approved; absent for off.
     * {@code model} and {@code sampling}: the session's own model and sampling (docs/api.md#models); absent for the
     * user's and the installation's. {@code incognito}: memory off for this session, nothing is learned from it and
     * no insight is injected (docs/memory.md#incognito-sessions); absent for off.
     */
    public record CreateSessionRequest(@Nullable String title, @Nullable String mode, @Nullable String preset,
                                       @Nullable String systemPrompt, @Nullable Boolean planFirst,
                                       @Nullable String model, @Nullable SamplingRequest sampling,
                                       @Nullable Boolean incognito) {
    }

    /** {@code images}: workspace paths of images to show the model with the text (docs/api.md#images). */
    public record PostMessageRequest(@Nullable String text, @Nullable List<String> images) {
    }

    @Post
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public HttpResponse<String> create(@Body @Nullable CreateSessionRequest body, HttpRequest<?> request)
            throws InterruptedException {
        String title = body == null || body.title() == null ? "" : body.title().strip();
        if (title.length() > MAX_TITLE_CHARS) {
            throw ApiException.badRequest("title is longer than " + MAX_TITLE_CHARS + " characters");
        }
        PermissionMode mode = body == null || body.mode() == null ? null : PermissionMode.parse(body.mode())
                .orElseThrow(() -> ApiException.badRequest("mode must be auto, normal or manual"));
        String systemPrompt = body == null || body.systemPrompt() == null || body.systemPrompt().isBlank()
                ? null : body.systemPrompt();
        String preset = SystemPrompts.check(body == null ? null : body.preset(), systemPrompt);
        String id = UUID.randomUUID().toString();
        boolean planFirst = body != null && Boolean.TRUE.equals(body.planFirst());
        ModelChoice model = SamplingRequest.check(body == null ? null : body.model(),
                body == null ? null : body.sampling());
        inputs.send(id, userOf(request), new SessionInput.CreateSession(title, mode, preset, systemPrompt, planFirst,
                model.model(), Sampling.orNull(model.sampling()), body != null && Boolean.TRUE.equals(body.incognito())));
        // Answer 201 once the session is in the log, so a client's next request finds it. If the orchestrator is
        // slow or down the request is still durable: 202, and the session appears when the orchestrator runs.
        if (directory.awaitSession(id, Duration.ofSeconds(10))) {
            return HttpResponse.created(ApiJson.write(CreatedSession.created(id)));
        }
        return HttpResponse.accepted().body(ApiJson.write(CreatedSession.pending(id)));
    }

    @Post("/{id}/messages")
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public HttpResponse<String> post(String id, @Body @Nullable PostMessageRequest body, HttpRequest<?> request) {
        SessionState state = sessions.writable(id, request);
        String text = body == null ? null : body.text();
        if (text == null || text.isBlank()) {
            throw ApiException.badRequest("text is required and must not be empty");
        }
        if (text.length() > MAX_MESSAGE_CHARS) {
            throw new ApiException(HttpStatus.REQUEST_ENTITY_TOO_LARGE,
                    "text is longer than " + MAX_MESSAGE_CHARS + " characters");
        }
        List<String> images = body.images() == null ? List.of() : body.images();
        String problem = ImagePaths.problem(images);
        if (problem != null) {
            throw ApiException.badRequest(problem);
        }
        if (!state.acceptsMessage()) {
            throw SessionAccess.busy(state, "cancel the turn, wait for it to end, or whisper to it");
        }
        String inputId = inputs.send(id, userOf(request), new SessionInput.PostUserMessage(text, images));
        return HttpResponse.accepted().body(ApiJson.write(new AcceptedInput(inputId)));
    }

    @Post("/{id}/cancel")
    @Produces(MediaType.APPLICATION_JSON)
    public HttpResponse<String> cancel(String id, HttpRequest<?> request) {
        if (!sessions.writable(id, request).acceptsCancel()) {
            throw new ApiException(HttpStatus.CONFLICT, "session " + id + " has no running turn to cancel");
        }
        String inputId = inputs.send(id, userOf(request), new SessionInput.CancelTurn());
        return HttpResponse.accepted().body(ApiJson.write(new AcceptedInput(inputId)));
    }

    /**
     * Deletes the session (docs/api.md): a running turn is cancelled, then the session is gone for everyone it was
     * shared with, its workspace is removed and its messages leave the search index. Only its owner may.
     */
    @Delete("/{id}")
    @Produces(MediaType.APPLICATION_JSON)
    public HttpResponse<String> delete(String id, HttpRequest<?> request) {
        SessionState state = sessions.readable(id, request);
        if (!state.isOwnedBy(userOf(request))) {
            throw new ApiException(HttpStatus.FORBIDDEN, "only the owner of session " + id + " may delete it");
        }
        String inputId = inputs.send(id, userOf(request), new SessionInput.DeleteSession());
        return HttpResponse.accepted().body(ApiJson.write(new AcceptedInput(inputId)));
    }

    @Get
    @Produces(MediaType.APPLICATION_JSON)
    public String list(HttpRequest<?> request) {
        return ApiJson.write(sessions.visible(request).stream().map(SessionListEntry::of).toList());
    }

    @Get("/{id}")
    @Produces(MediaType.APPLICATION_JSON)
    public String show(String id, HttpRequest<?> request) {
        return ApiJson.write(SessionDetails.of(sessions.shown(id, request)));
    }

    @Get(value = "/{id}/log")
    @Produces("application/x-ndjson")
    public String log(String id, HttpRequest<?> request) {
        return sessions.shownLog(id, request).stream().map(EventCodec::eventToJson)
                .collect(Collectors.joining("\n", "", "\n"));
    }
}
