package dev.agentbus.events.codec;

/**
 * A record that cannot be read at all (not JSON, or no envelope). Consumers send it to the dead-letter topic
 * with this message as the reason and move on; an unknown but well-formed type is NOT malformed.
 */
public class MalformedRecordException extends RuntimeException {
    public MalformedRecordException(String message, Throwable cause) {
        super(message, cause);
    }

    public MalformedRecordException(String message) {
        super(message);
    }
}
