package dev.agentbus.gateway.sessions;

import dev.agentbus.events.session.EventEnvelope;
import dev.agentbus.events.state.SessionState;
import dev.agentbus.gateway.accounts.groups.Groups;
import dev.agentbus.gateway.errors.ApiException;
import dev.agentbus.gateway.readmodels.ReadModelDatabase;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpStatus;
import jakarta.inject.Singleton;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

import static dev.agentbus.gateway.auth.Callers.userOf;

/**
 * Which sessions a request may touch, for every controller: the caller's own, and those shared with one of the
 * caller's groups (read, or read and write). Anything else is 404, the same answer as for a session that does not
 * exist, so ids do not leak. Whether a session takes a message or a tool now is the state's to say
 * ({@link SessionState}); this only turns the answers into the API's errors.
 */
@Singleton
public final class SessionAccess {
    private final SessionDirectory directory;
    private final ReadModelDatabase database;

    public SessionAccess(SessionDirectory directory, ReadModelDatabase database) {
        this.directory = directory;
        this.database = database;
    }

    /** The caller's own session: for what only an owner may do (sharing it). */
    public SessionState owned(String sessionId, HttpRequest<?> request) {
        String user = userOf(request);
        return directory.state(sessionId).filter(s -> s.isOwnedBy(user))
                .orElseThrow(() -> notFound(sessionId));
    }

    /** A session the caller may see: their own or shared with one of their groups. */
    public SessionState readable(String sessionId, HttpRequest<?> request) {
        return readable(sessionId, userOf(request));
    }

    /** {@link #readable(String, HttpRequest)} for a user the caller has authenticated (the MCP server's tools). */
    public SessionState readable(String sessionId, String user) {
        return reachable(sessionId, user, Groups.Mode.READ);
    }

    /**
     * A session the caller may see, as they may see it: {@link #readable} with the owner's memory hidden from anyone
     * else ({@link SessionViewer}). For answers; decisions use {@link #readable} and {@link #writable}.
     */
    public SessionState shown(String sessionId, HttpRequest<?> request) {
        SessionState state = readable(sessionId, request);
        return SessionViewer.of(state, userOf(request)).state(state);
    }

    /** The log of a session the caller may see, as they may see it ({@link SessionViewer}). */
    public List<EventEnvelope> shownLog(String sessionId, HttpRequest<?> request) {
        return viewer(sessionId, request).events(directory.events(sessionId, 0));
    }

    /** How the caller sees a session they may see, for a stream of its events: a new one per stream. */
    public SessionViewer viewer(String sessionId, HttpRequest<?> request) {
        return SessionViewer.of(readable(sessionId, request), userOf(request));
    }

    /** A session the caller may act in (post, cancel, run tools, rewind): their own or shared for writing. */
    public SessionState writable(String sessionId, HttpRequest<?> request) {
        return writable(sessionId, userOf(request));
    }

    /** {@link #writable(String, HttpRequest)} for a user the caller has authenticated (the MCP server's tools). */
    public SessionState writable(String sessionId, String user) {
        return reachable(sessionId, user, Groups.Mode.WRITE);
    }

    /** The sessions the caller may see, newest first: their own, then those shared with their groups. */
    public List<SessionState> visible(HttpRequest<?> request) {
        return visible(userOf(request));
    }

    /** {@link #visible(HttpRequest)} for a user the caller has authenticated (the MCP server's tools). */
    public List<SessionState> visible(String user) {
        List<SessionState> all = new ArrayList<>(directory.list(user));
        if (database.configured()) {
            for (String id : database.query(c -> Groups.sharedWith(c, user))) {
                directory.state(id).filter(s -> !s.isOwnedBy(user)).ifPresent(all::add);
            }
        }
        all.sort(Comparator.comparing(SessionState::updatedAt).reversed());
        return all;
    }

    private SessionState reachable(String sessionId, String user, Groups.Mode needed) {
        SessionState state = directory.state(sessionId).orElseThrow(() -> notFound(sessionId));
        if (state.isOwnedBy(user)) {
            return state;
        }
        if (!database.configured()) {
            throw notFound(sessionId);
        }
        Optional<Groups.Mode> shared = database.query(c -> Groups.access(c, sessionId, user));
        if (shared.isEmpty()) {
            throw notFound(sessionId);
        }
        if (needed == Groups.Mode.WRITE && shared.get() == Groups.Mode.READ) {
            throw new ApiException(HttpStatus.FORBIDDEN, "session " + sessionId + " is shared with you read-only");
        }
        return state;
    }

    private static ApiException notFound(String sessionId) {
        return ApiException.notFound("no session " + sessionId);
    }

    /** 409 for a request that must wait for the turn to end: {@code session <id> is running; <advice>}. */
    public static ApiException busy(SessionState state, String advice) {
        return new ApiException(HttpStatus.CONFLICT, "session " + state.sessionId() + " is "
                + state.status().name().toLowerCase() + "; " + advice);
    }
}
