package dev.agentbus.gateway.context;

import dev.agentbus.api.AcceptedInput;
import dev.agentbus.api.ApiJson;
import dev.agentbus.api.PresetView;
import dev.agentbus.events.context.Presets;
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
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.Post;
import io.micronaut.http.annotation.Produces;
import io.micronaut.http.annotation.Put;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;

import static dev.agentbus.gateway.auth.Callers.userOf;

/**
 * What goes into a session's prompt besides the conversation: the presets ({@code GET /api/v1/presets}), the session's
 * own system prompt ({@code PUT /api/v1/sessions/{id}/system-prompt}) and compaction on request ({@code POST
 * /api/v1/sessions/{id}/compact}). Each change becomes an input the orchestrator records. See docs/api.md#context.
 */
@Controller("/api/v1")
@ExecuteOn(TaskExecutors.BLOCKING)
class ContextController {
    private final SessionAccess sessions;
    private final InputSender inputs;

    ContextController(SessionAccess sessions, InputSender inputs) {
        this.sessions = sessions;
        this.inputs = inputs;
    }

    /** Either, both or neither (neither: back to the installation's prompt). */
    public record SystemPromptRequest(@Nullable String preset, @Nullable String systemPrompt) {
    }

    @Get("/presets")
    @Produces(MediaType.APPLICATION_JSON)
    public String presets() {
        return ApiJson.write(Presets.ALL.stream().map(PresetView::of).toList());
    }

    @Put("/sessions/{id}/system-prompt")
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public HttpResponse<String> setSystemPrompt(String id, @Body @Nullable SystemPromptRequest body,
                                                HttpRequest<?> request) {
        sessions.writable(id, request);
        String text = body == null || body.systemPrompt() == null || body.systemPrompt().isBlank()
                ? null : body.systemPrompt();
        String preset = SystemPrompts.check(body == null ? null : body.preset(), text);
        String inputId = inputs.send(id, userOf(request), new SessionInput.SetSystemPrompt(preset, text));
        return HttpResponse.accepted().body(ApiJson.write(new AcceptedInput(inputId)));
    }

    /**
     * 409 while a turn is under way (the decider compacts then, before a model call, when the prompt needs it) or a
     * summary is being written: a summary asked for mid-turn would race the turn's own model calls over which
     * messages it covers.
     */
    @Post("/sessions/{id}/compact")
    @Produces(MediaType.APPLICATION_JSON)
    public HttpResponse<String> compact(String id, HttpRequest<?> request) {
        SessionState state = sessions.writable(id, request);
        if (!state.acceptsCompaction()) {
            throw new ApiException(HttpStatus.CONFLICT, state.context().awaitsSummary()
                    ? "session " + id + " is being compacted already"
                    : "session " + id + " is " + state.status().name().toLowerCase()
                            + "; compact it once the turn has ended");
        }
        String inputId = inputs.send(id, userOf(request), new SessionInput.CompactContext());
        return HttpResponse.accepted().body(ApiJson.write(new AcceptedInput(inputId)));
    }
}
