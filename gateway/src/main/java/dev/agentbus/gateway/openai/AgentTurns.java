package dev.agentbus.gateway.openai;

import dev.agentbus.events.input.SessionInput;
import dev.agentbus.events.session.EventEnvelope;
import dev.agentbus.events.state.SessionState;
import dev.agentbus.events.stream.StreamChunk;
import dev.agentbus.gateway.sessions.InputSender;
import dev.agentbus.gateway.sessions.SessionDirectory;
import io.micronaut.http.HttpStatus;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Consumer;

/**
 * Turns a chat request into an agent turn: finds or creates the session, follows its log, and posts the message,
 * like a person using the sessions API. The transcript of the turn goes to a listener as it happens.
 *
 * <p>Which session: the one named by the {@code X-Agentbus-Session} header (the caller's own, else 404); else the
 * one that OpenAI's {@code user} field names for this caller (a stable id made from both, so the same {@code user}
 * continues the same conversation); else a new one. The WebSocket API's {@code chat} picks its session itself and
 * uses {@link #post} only.
 */
public final class AgentTurns {
    private static final Duration SESSION_APPEARS = Duration.ofSeconds(10);
    private static final int TITLE_CHARS = 60;

    private final SessionDirectory directory;
    private final InputSender inputs;

    public AgentTurns(SessionDirectory directory, InputSender inputs) {
        this.directory = directory;
        this.inputs = inputs;
    }

    /** A turn that has begun: its session, and how to stop following it. */
    public record Started(String sessionId, Runnable unfollow) {
    }

    /**
     * Starts the turn and hands each piece of its transcript to {@code listener}, on the gateway's follower threads,
     * one at a time, until {@link TurnTranscript.Output.Finished}.
     */
    Started start(String caller, String sessionHeader, ChatRequest request,
                  Consumer<TurnTranscript.Output> listener) throws InterruptedException {
        SessionState session = session(caller, sessionHeader, request);
        if (!session.acceptsMessage()) {
            throw new OpenAiException(HttpStatus.CONFLICT, "invalid_request_error", "the agent's session "
                    + session.sessionId() + " is " + session.status().name().toLowerCase()
                    + "; wait for its turn to end", null);
        }
        return post(session, caller, request.text(), listener);
    }

    /**
     * Posts {@code text} as {@code caller}'s message to {@code session} (whose access the caller has checked) and
     * hands each piece of the turn's transcript to {@code listener}, as {@link #start} does.
     */
    public Started post(SessionState session, String caller, String text, Consumer<TurnTranscript.Output> listener) {
        String inputId = UUID.randomUUID().toString();
        TurnTranscript transcript = new TurnTranscript(inputId);
        // Following before posting, from the session's current end: nothing the turn writes can be missed.
        Runnable unfollow = directory.subscribe(session.sessionId(), session.lastSeq(),
                new SessionDirectory.Subscriber() {
                    // Events and deltas come on two threads: one at a time, and delivered in the order made.
                    @Override
                    public void onEvent(EventEnvelope event) {
                        synchronized (transcript) {
                            transcript.onEvent(event).forEach(listener);
                        }
                    }

                    @Override
                    public void onDelta(StreamChunk chunk) {
                        synchronized (transcript) {
                            transcript.onDelta(chunk).forEach(listener);
                        }
                    }
                });
        try {
            inputs.send(session.sessionId(), caller, inputId, new SessionInput.PostUserMessage(text));
        } catch (RuntimeException e) {
            unfollow.run();
            throw e;
        }
        return new Started(session.sessionId(), unfollow);
    }

    private SessionState session(String caller, String header, ChatRequest request) throws InterruptedException {
        if (header != null && !header.isBlank()) {
            return owned(header.strip(), caller).orElseThrow(() -> new OpenAiException(HttpStatus.NOT_FOUND,
                    "invalid_request_error", "no session " + header.strip(), null));
        }
        String id = request.user() == null ? UUID.randomUUID().toString()
                : UUID.nameUUIDFromBytes(("openai\0" + caller + "\0" + request.user())
                        .getBytes(StandardCharsets.UTF_8)).toString();
        Optional<SessionState> existing = directory.state(id);
        if (existing.isPresent()) {
            return owned(id, caller).orElseThrow(() -> new OpenAiException(HttpStatus.NOT_FOUND,
                    "invalid_request_error", "no session for user " + request.user(), "user"));
        }
        String title = request.text().strip().replaceAll("\\s+", " ");
        inputs.send(id, caller, new SessionInput.CreateSession(title.length() > TITLE_CHARS
                ? title.substring(0, TITLE_CHARS) + "…" : title));
        if (!directory.awaitSession(id, SESSION_APPEARS)) {
            throw new OpenAiException(HttpStatus.SERVICE_UNAVAILABLE, "server_error",
                    "the agent did not start a session within " + SESSION_APPEARS.toSeconds() + " s; try again",
                    null);
        }
        return owned(id, caller).orElseThrow(() -> new OpenAiException(HttpStatus.NOT_FOUND,
                "invalid_request_error", "no session " + id, null));
    }

    private Optional<SessionState> owned(String sessionId, String caller) {
        return directory.state(sessionId).filter(s -> s.isOwnedBy(caller));
    }
}
