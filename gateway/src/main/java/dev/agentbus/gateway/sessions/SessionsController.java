package dev.agentbus.gateway.sessions;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentbus.events.Json;
import dev.agentbus.events.codec.EventCodec;
import dev.agentbus.events.input.SessionInput;
import dev.agentbus.events.state.SessionState;
import dev.agentbus.events.state.SessionStatus;
import dev.agentbus.gateway.errors.ApiException;
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
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;

import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;

import static dev.agentbus.gateway.auth.BearerTokenFilter.userOf;

/**
 * Sessions over HTTP: create, send a message, cancel, list, show, and the raw log. Writes go to
 * {@code agentbus.session-inputs}; reads come from the {@link SessionDirectory}. See docs/api.md.
 */
@Controller("/api/v1/sessions")
@ExecuteOn(TaskExecutors.BLOCKING)
public class SessionsController {
    static final int MAX_TITLE_CHARS = 200;
    static final int MAX_MESSAGE_CHARS = 256 * 1024;

    private final SessionDirectory directory;
    private final InputSender inputs;

    public SessionsController(SessionDirectory directory, InputSender inputs) {
        this.directory = directory;
        this.inputs = inputs;
    }

    public record CreateSessionRequest(@Nullable String title) {
    }

    public record PostMessageRequest(@Nullable String text) {
    }

    @Post
    @Consumes(MediaType.APPLICATION_JSON)
    public HttpResponse<Map<String, String>> create(@Body @Nullable CreateSessionRequest body, HttpRequest<?> request)
            throws InterruptedException {
        String title = body == null || body.title() == null ? "" : body.title().strip();
        if (title.length() > MAX_TITLE_CHARS) {
            throw ApiException.badRequest("title is longer than " + MAX_TITLE_CHARS + " characters");
        }
        String id = UUID.randomUUID().toString();
        inputs.send(id, userOf(request), new SessionInput.CreateSession(title));
        // Answer 201 once the session is in the log, so a client's next request finds it. If the orchestrator is
        // slow or down the request is still durable: 202, and the session appears when the orchestrator runs.
        if (directory.awaitSession(id, Duration.ofSeconds(10))) {
            return HttpResponse.created(Map.of("id", id));
        }
        return HttpResponse.accepted().body(Map.of("id", id, "status", "pending"));
    }

    @Post("/{id}/messages")
    @Consumes(MediaType.APPLICATION_JSON)
    public HttpResponse<Map<String, String>> post(String id, @Body @Nullable PostMessageRequest body,
                                                  HttpRequest<?> request) {
        SessionState state = owned(id, request);
        String text = body == null ? null : body.text();
        if (text == null || text.isBlank()) {
            throw ApiException.badRequest("text is required and must not be empty");
        }
        if (text.length() > MAX_MESSAGE_CHARS) {
            throw new ApiException(HttpStatus.REQUEST_ENTITY_TOO_LARGE,
                    "text is longer than " + MAX_MESSAGE_CHARS + " characters");
        }
        if (state.status() != SessionStatus.IDLE) {
            throw new ApiException(HttpStatus.CONFLICT, "session " + id + " is " + state.status().name()
                    .toLowerCase() + "; cancel the turn or wait for it to end");
        }
        String inputId = inputs.send(id, userOf(request), new SessionInput.PostUserMessage(text));
        return HttpResponse.accepted().body(Map.of("inputId", inputId));
    }

    @Post("/{id}/cancel")
    public HttpResponse<Map<String, String>> cancel(String id, HttpRequest<?> request) {
        if (owned(id, request).turn() == null) {
            throw new ApiException(HttpStatus.CONFLICT, "session " + id + " has no running turn to cancel");
        }
        String inputId = inputs.send(id, userOf(request), new SessionInput.CancelTurn());
        return HttpResponse.accepted().body(Map.of("inputId", inputId));
    }

    @Get
    @Produces(MediaType.APPLICATION_JSON)
    public String list(HttpRequest<?> request) {
        ArrayNode out = Json.mapper().createArrayNode();
        for (SessionState s : directory.list(userOf(request))) {
            ObjectNode n = out.addObject();
            n.put("id", s.sessionId());
            n.put("title", s.title());
            n.put("status", s.status().name());
            n.put("createdAt", String.valueOf(s.createdAt()));
            n.put("updatedAt", String.valueOf(s.updatedAt()));
            n.put("lastSeq", s.lastSeq());
            n.set("usage", Json.mapper().valueToTree(s.usage()));
            n.put("lastOutcome", s.lastOutcome() == null ? null : s.lastOutcome().name());
        }
        return out.toString();
    }

    @Get("/{id}")
    @Produces(MediaType.APPLICATION_JSON)
    public String show(String id, HttpRequest<?> request) throws JsonProcessingException {
        return Json.mapper().writeValueAsString(owned(id, request));
    }

    @Get(value = "/{id}/log")
    @Produces("application/x-ndjson")
    public String log(String id, HttpRequest<?> request) {
        owned(id, request);
        return directory.events(id, 0).stream().map(EventCodec::eventToJson)
                .collect(Collectors.joining("\n", "", "\n"));
    }


    /** The session, if it exists and belongs to the caller; 404 otherwise (not 403: ids are not to be probed). */
    private SessionState owned(String id, HttpRequest<?> request) {
        return directory.state(id).filter(s -> userOf(request).equals(s.userId()))
                .orElseThrow(() -> ApiException.notFound("no session " + id));
    }

}
