package dev.agentbus.gateway.organising;

import dev.agentbus.api.ApiJson;
import dev.agentbus.api.organising.SessionLabel;
import dev.agentbus.events.state.SessionState;
import dev.agentbus.gateway.errors.ApiException;
import dev.agentbus.gateway.readmodels.ReadModelDatabase;
import dev.agentbus.gateway.sessions.SessionAccess;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Consumes;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.Produces;
import io.micronaut.http.annotation.Put;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;

import java.time.Clock;

import static dev.agentbus.gateway.auth.Callers.userOf;

/**
 * Pins and folders: how each person arranges the sessions they can see (their own and those shared with them).
 * {@code GET /api/v1/me/session-labels} lists the caller's; {@code PUT /api/v1/sessions/{id}/label} sets one.
 * Kept per person in PostgreSQL, not in the session's log: arranging a list is nobody else's business and changes
 * nothing about the session.
 */
@Controller("/api/v1")
@ExecuteOn(TaskExecutors.BLOCKING)
class SessionLabelsController {
    static final int MAX_FOLDER_CHARS = 80;

    private final ReadModelDatabase database;
    private final SessionAccess sessions;
    private final Clock clock = Clock.systemUTC();

    SessionLabelsController(ReadModelDatabase database, SessionAccess sessions) {
        this.database = database;
        this.sessions = sessions;
    }

    /** Both fields are set at once: {@code pinned} absent is false, {@code folder} absent or blank is none. */
    public record LabelRequest(@Nullable Boolean pinned, @Nullable String folder) {
    }

    @Get("/me/session-labels")
    @Produces(MediaType.APPLICATION_JSON)
    public String list(HttpRequest<?> request) {
        return ApiJson.write(database.query(c -> SessionLabels.of(c, userOf(request))));
    }

    @Put("/sessions/{id}/label")
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public String put(String id, @Body @Nullable LabelRequest body, HttpRequest<?> request) {
        SessionState session = sessions.readable(id, request);
        if (body == null) {
            throw ApiException.badRequest("a body is required: {\"pinned\": true|false, \"folder\": \"name\"|null}");
        }
        String folder = body.folder() == null || body.folder().isBlank() ? null : body.folder().strip();
        if (folder != null && (folder.length() > MAX_FOLDER_CHARS || folder.chars().anyMatch(Character::isISOControl))) {
            throw ApiException.badRequest("folder must be at most " + MAX_FOLDER_CHARS
                    + " characters, without control characters");
        }
        SessionLabel label = new SessionLabel(session.sessionId(), Boolean.TRUE.equals(body.pinned()), folder);
        database.query(c -> {
            SessionLabels.put(c, userOf(request), label, clock.instant());
            return null;
        });
        return ApiJson.write(label);
    }
}
