package dev.agentbus.gateway.sharing;

import dev.agentbus.api.ApiJson;
import dev.agentbus.api.sharing.CreatedShareLink;
import dev.agentbus.api.sharing.SharedSession;
import dev.agentbus.events.state.SessionState;
import dev.agentbus.gateway.accounts.credentials.SecretTokens;
import dev.agentbus.gateway.errors.ApiException;
import dev.agentbus.gateway.readmodels.ReadModelDatabase;
import dev.agentbus.gateway.sessions.SessionAccess;
import dev.agentbus.gateway.sessions.SessionDirectory;
import dev.agentbus.gateway.sessions.SessionViewer;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Delete;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.Post;
import io.micronaut.http.annotation.Produces;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.util.UUID;

import static dev.agentbus.gateway.auth.Callers.userOf;

/**
 * Read-only share links and the Markdown export (docs/api.md "Share links and Markdown export").
 *
 * <ul>
 *   <li>{@code POST /api/v1/sessions/{id}/share-links}: the session's owner makes a link; its token is shown once
 *       and only its SHA-256 is kept. {@code GET} lists the links, {@code DELETE .../{linkId}} revokes one at once.</li>
 *   <li>{@code GET /api/v1/shared/{token}}: the only route open without a login besides logging in. It shows the
 *       session as it is now, as Markdown, and nothing else: no log, no files, no way to act. A wrong or revoked
 *       token is 404, like a session that does not exist.</li>
 *   <li>{@code GET /api/v1/sessions/{id}/export.md}: the conversation as a Markdown file.</li>
 * </ul>
 */
@Controller("/api")
@ExecuteOn(TaskExecutors.BLOCKING)
class ShareLinksController {
    private final ReadModelDatabase database;
    private final SessionAccess sessions;
    private final SessionDirectory directory;
    private final Clock clock = Clock.systemUTC();

    ShareLinksController(ReadModelDatabase database, SessionAccess sessions, SessionDirectory directory) {
        this.database = database;
        this.sessions = sessions;
        this.directory = directory;
    }

    @Post("/v1/sessions/{id}/share-links")
    @Produces(MediaType.APPLICATION_JSON)
    public HttpResponse<String> create(String id, HttpRequest<?> request) {
        SessionState session = sessions.owned(id, request);
        String token = SecretTokens.newToken("sh_");
        String linkId = UUID.randomUUID().toString();
        Instant now = clock.instant();
        database.query(c -> {
            ShareLinks.insert(c, linkId, session.sessionId(), SecretTokens.sha256Hex(token), userOf(request), now);
            return null;
        });
        return HttpResponse.created(ApiJson.write(new CreatedShareLink(linkId, token, "/share.html#" + token, now)));
    }

    @Get("/v1/sessions/{id}/share-links")
    @Produces(MediaType.APPLICATION_JSON)
    public String list(String id, HttpRequest<?> request) {
        SessionState session = sessions.owned(id, request);
        return ApiJson.write(database.query(c -> ShareLinks.of(c, session.sessionId())));
    }

    @Delete("/v1/sessions/{id}/share-links/{linkId}")
    public HttpResponse<Void> revoke(String id, String linkId, HttpRequest<?> request) {
        SessionState session = sessions.owned(id, request);
        Instant now = clock.instant();
        if (!database.query(c -> ShareLinks.revoke(c, session.sessionId(), linkId, now))) {
            throw ApiException.notFound("no share link " + linkId + " of session " + id);
        }
        return HttpResponse.noContent();
    }

    @Get("/v1/shared/{token}")
    @Produces(MediaType.APPLICATION_JSON)
    public String shared(String token) {
        String sessionId = database.query(c -> ShareLinks.sessionOf(c, SecretTokens.sha256Hex(token)))
                .orElseThrow(() -> ApiException.notFound("no such share link (it may have been revoked)"));
        SessionState session = directory.state(sessionId)
                .orElseThrow(() -> ApiException.notFound("no such share link (it may have been revoked)"));
        return ApiJson.write(new SharedSession(session.title(), session.updatedAt(),
                MarkdownTranscript.of(SessionViewer.anonymous(session).state(session))));
    }

    @Get("/v1/sessions/{id}/export.md")
    public HttpResponse<byte[]> markdown(String id, HttpRequest<?> request) {
        SessionState session = sessions.shown(id, request);
        return HttpResponse.ok(MarkdownTranscript.of(session).getBytes(StandardCharsets.UTF_8))
                .contentType(new MediaType("text/markdown; charset=utf-8"))
                .header("Content-Disposition", "attachment; filename=\"session-" + session.sessionId() + ".md\"");
    }
}
