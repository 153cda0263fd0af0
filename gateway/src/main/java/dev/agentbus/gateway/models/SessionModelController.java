package dev.agentbus.gateway.models;

import dev.agentbus.api.AcceptedInput;
import dev.agentbus.api.ApiJson;
import dev.agentbus.events.input.SessionInput;
import dev.agentbus.events.models.ModelChoice;
import dev.agentbus.events.models.Sampling;
import dev.agentbus.gateway.sessions.InputSender;
import dev.agentbus.gateway.sessions.SessionAccess;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Consumes;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Produces;
import io.micronaut.http.annotation.Put;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;

import static dev.agentbus.gateway.auth.Callers.userOf;

/**
 * A session's own model and sampling: {@code PUT /api/v1/sessions/{id}/model} with {@code {"model"?, "sampling"?}}.
 * The body replaces the session's previous choice (an empty one goes back to the preset's, the user's and the
 * installation's). Taken at any time, also while a turn runs: the orchestrator records it and the next model call
 * asks for it. See docs/api.md#models.
 */
@Controller("/api/v1/sessions")
@ExecuteOn(TaskExecutors.BLOCKING)
class SessionModelController {
    private final SessionAccess sessions;
    private final InputSender inputs;

    SessionModelController(SessionAccess sessions, InputSender inputs) {
        this.sessions = sessions;
        this.inputs = inputs;
    }

    public record SessionModelRequest(@Nullable String model, @Nullable SamplingRequest sampling) {
    }

    @Put("/{id}/model")
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public HttpResponse<String> set(String id, @Body @Nullable SessionModelRequest body, HttpRequest<?> request) {
        sessions.writable(id, request);
        ModelChoice choice = SamplingRequest.check(body == null ? null : body.model(),
                body == null ? null : body.sampling());
        String inputId = inputs.send(id, userOf(request),
                new SessionInput.SetSessionModel(choice.model(), Sampling.orNull(choice.sampling())));
        return HttpResponse.accepted().body(ApiJson.write(new AcceptedInput(inputId)));
    }
}
