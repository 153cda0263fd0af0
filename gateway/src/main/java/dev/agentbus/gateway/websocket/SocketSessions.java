package dev.agentbus.gateway.websocket;

import dev.agentbus.events.input.SessionInput;
import dev.agentbus.events.session.EventEnvelope;
import dev.agentbus.events.session.SessionEvent.NotificationPosted;
import dev.agentbus.events.state.SessionState;
import dev.agentbus.events.stream.StreamChunk;
import dev.agentbus.gateway.errors.ApiException;
import dev.agentbus.gateway.sessions.InputSender;
import dev.agentbus.gateway.sessions.SessionAccess;
import dev.agentbus.gateway.sessions.SessionDirectory;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpStatus;
import jakarta.inject.Singleton;

import java.time.Duration;
import java.util.UUID;
import java.util.function.Consumer;

/**
 * The session a connection works in: the one its {@code session} query parameter names (one the caller may see,
 * else the same 404 as for one that does not exist), or a new one of the caller's, created as
 * {@code POST /api/v1/sessions} creates one. And the notifications of that session, as they are recorded.
 */
@Singleton
class SocketSessions {
    private static final Duration SESSION_APPEARS = Duration.ofSeconds(10);

    private final SessionDirectory directory;
    private final SessionAccess access;
    private final InputSender inputs;

    SocketSessions(SessionDirectory directory, SessionAccess access, InputSender inputs) {
        this.directory = directory;
        this.access = access;
        this.inputs = inputs;
    }

    /** @param wanted the {@code session} query parameter; null or blank for a new session */
    SessionState open(String wanted, String userId, HttpRequest<?> request) throws InterruptedException {
        if (wanted != null && !wanted.isBlank()) {
            return access.readable(wanted.strip(), request);
        }
        String id = UUID.randomUUID().toString();
        inputs.send(id, userId, new SessionInput.CreateSession(""));
        if (!directory.awaitSession(id, SESSION_APPEARS)) {
            throw new ApiException(HttpStatus.SERVICE_UNAVAILABLE, "the new session " + id + " was not recorded "
                    + "within " + SESSION_APPEARS.toSeconds() + " s (is an orchestrator running?); the request is "
                    + "kept, connect again with ?session=" + id + " later");
        }
        return access.readable(id, request);
    }

    /** Hands each notification recorded after {@code afterSeq} to {@code listener}; returns how to stop. */
    Runnable followNotifications(String sessionId, long afterSeq, Consumer<Reply.Notification> listener) {
        return directory.subscribe(sessionId, afterSeq, new SessionDirectory.Subscriber() {
            @Override
            public void onEvent(EventEnvelope event) {
                if (event.event() instanceof NotificationPosted n) {
                    listener.accept(new Reply.Notification(sessionId, event.seq(), event.time(), n.sentBy(),
                            n.message()));
                }
            }

            @Override
            public void onDelta(StreamChunk chunk) {
                // only notifications
            }
        });
    }
}
