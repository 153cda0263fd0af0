package dev.agentbus.gateway.sessions;

import dev.agentbus.events.state.SessionState;
import dev.agentbus.gateway.errors.ApiException;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpStatus;

import static dev.agentbus.gateway.auth.BearerTokenFilter.userOf;

/**
 * Which sessions a request may touch, for every controller: the caller's own, as the gateway's view of the log
 * knows them. Whether a session takes a message or a tool now is the state's to say ({@link SessionState}); this
 * only turns the answers into the API's errors.
 */
public final class SessionAccess {
    private final SessionDirectory directory;

    public SessionAccess(SessionDirectory directory) {
        this.directory = directory;
    }

    /**
     * The session, if it exists and belongs to the caller; 404 otherwise. Not 403 for someone else's session: the
     * answer must not tell whether an id exists.
     */
    public SessionState owned(String sessionId, HttpRequest<?> request) {
        String user = userOf(request);
        return directory.state(sessionId).filter(s -> s.isOwnedBy(user))
                .orElseThrow(() -> ApiException.notFound("no session " + sessionId));
    }

    /** 409 for a request that must wait for the turn to end: {@code session <id> is running; <advice>}. */
    public static ApiException busy(SessionState state, String advice) {
        return new ApiException(HttpStatus.CONFLICT, "session " + state.sessionId() + " is "
                + state.status().name().toLowerCase() + "; " + advice);
    }
}
