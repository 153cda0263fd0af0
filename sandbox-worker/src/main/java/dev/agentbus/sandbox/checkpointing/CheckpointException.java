package dev.agentbus.sandbox.checkpointing;

/** A checkpoint could not be taken or restored (git missing or failing, an unknown checkpoint id, an I/O error). */
public final class CheckpointException extends Exception {
    public CheckpointException(String message) {
        super(message);
    }

    public CheckpointException(String message, Throwable cause) {
        super(message, cause);
    }
}
