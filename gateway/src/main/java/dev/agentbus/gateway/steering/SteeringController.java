package dev.agentbus.gateway.steering;

import dev.agentbus.api.AcceptedInput;
import dev.agentbus.api.ApiJson;
import dev.agentbus.events.input.SessionInput;
import dev.agentbus.events.state.SessionState;
import dev.agentbus.gateway.errors.ApiException;
import dev.agentbus.gateway.sessions.InputSender;
import dev.agentbus.gateway.sessions.SessionAccess;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Consumes;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Post;
import io.micronaut.http.annotation.Produces;
import io.micronaut.http.annotation.Put;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;

import static dev.agentbus.gateway.auth.Callers.userOf;

/**
 * Steering a session without stopping it: renaming it ({@code PUT /api/v1/sessions/{id}/title}) and whispering to
 * its running turn ({@code POST /api/v1/sessions/{id}/whisper}). Anyone who may write the session may do both; each
 * becomes an input the orchestrator records. See docs/api.md#rename-a-session and #whisper-to-the-running-turn.
 */
@Controller("/api/v1/sessions")
@ExecuteOn(TaskExecutors.BLOCKING)
class SteeringController {
    /** The same limit as a title given at creation. */
    static final int MAX_TITLE_CHARS = 200;
    /** A whisper is a short note into a prompt, not a document: a long one belongs in a message. */
    static final int MAX_WHISPER_CHARS = 4096;

    private final SessionAccess sessions;
    private final InputSender inputs;

    SteeringController(SessionAccess sessions, InputSender inputs) {
        this.sessions = sessions;
        this.inputs = inputs;
    }

    public record TitleRequest(@Nullable String title) {
    }

    public record WhisperRequest(@Nullable String text) {
    }

    @Put("/{id}/title")
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public HttpResponse<String> rename(String id, @Body @Nullable TitleRequest body, HttpRequest<?> request) {
        // Access first: someone who may not write the session learns nothing about it, not even that a body is bad.
        sessions.writable(id, request);
        String title = body == null || body.title() == null ? "" : body.title().strip();
        if (title.isEmpty()) {
            throw ApiException.badRequest("title is required and must not be empty");
        }
        if (title.length() > MAX_TITLE_CHARS) {
            throw ApiException.badRequest("title is longer than " + MAX_TITLE_CHARS + " characters");
        }
        String inputId = inputs.send(id, userOf(request), new SessionInput.RenameSession(title));
        return HttpResponse.accepted().body(ApiJson.write(new AcceptedInput(inputId)));
    }

    @Post("/{id}/whisper")
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public HttpResponse<String> whisper(String id, @Body @Nullable WhisperRequest body, HttpRequest<?> request) {
        SessionState state = sessions.writable(id, request);
        String text = body == null ? null : body.text();
        if (text == null || text.isBlank()) {
            throw ApiException.badRequest("text is required and must not be empty");
        }
        if (text.length() > MAX_WHISPER_CHARS) {
            throw new ApiException(HttpStatus.REQUEST_ENTITY_TOO_LARGE,
                    "text is longer than " + MAX_WHISPER_CHARS + " characters");
        }
        // Early, from the gateway's view of the log; the decider checks again.
        if (!state.acceptsWhisper()) {
            throw new ApiException(HttpStatus.CONFLICT, "session " + id
                    + " has no turn under way to whisper to; send a message instead");
        }
        String inputId = inputs.send(id, userOf(request), new SessionInput.PostWhisper(text));
        return HttpResponse.accepted().body(ApiJson.write(new AcceptedInput(inputId)));
    }
}
