package dev.agentbus.gateway.approvals;

import dev.agentbus.api.AcceptedInput;
import dev.agentbus.api.ApiJson;
import dev.agentbus.events.input.SessionInput;
import dev.agentbus.events.session.PermissionMode;
import dev.agentbus.gateway.errors.ApiException;
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
 * Sets a session's permission mode, at any time, also while a turn runs: {@code PUT /api/v1/sessions/{id}/mode}.
 * See docs/api.md#permission-modes.
 */
@Controller("/api/v1/sessions")
@ExecuteOn(TaskExecutors.BLOCKING)
class PermissionModeController {
    private final SessionAccess sessions;
    private final InputSender inputs;

    PermissionModeController(SessionAccess sessions, InputSender inputs) {
        this.sessions = sessions;
        this.inputs = inputs;
    }

    /** {@code mode}: auto, normal or manual. */
    public record ModeRequest(@Nullable String mode) {
    }

    @Put("/{id}/mode")
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public HttpResponse<String> set(String id, @Body @Nullable ModeRequest body, HttpRequest<?> request) {
        sessions.writable(id, request);
        PermissionMode mode = PermissionMode.parse(body == null ? null : body.mode())
                .orElseThrow(() -> ApiException.badRequest("mode must be auto, normal or manual"));
        String inputId = inputs.send(id, userOf(request), new SessionInput.SetPermissionMode(mode));
        return HttpResponse.accepted().body(ApiJson.write(new AcceptedInput(inputId)));
    }
}
