package dev.agentbus.events.state;

/**
 * A person's note to the running turn, waiting for the turn's next model call (whisper.queued.v1).
 *
 * @param sentBy the user who sent it; in a shared session not always the owner
 */
public record QueuedWhisper(String whisperId, String text, String sentBy) {
}
