package dev.agentbus.events.stream;

import java.time.Instant;

/**
 * A live fragment on {@code agentbus.session-stream}: a model token, a reasoning token, or a piece of command
 * output. Ephemeral (short retention) and not part of state: the complete message or result is one event on
 * session-events (invariant 5).
 *
 * @param ref the model request id (tokens) or the tool call id (output) the fragment belongs to
 */
public record StreamChunk(String sessionId, Kind kind, String ref, String text, Instant time) {
    public enum Kind { TOKEN, REASONING, OUTPUT }
}
