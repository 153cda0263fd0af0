package dev.agentbus.sandbox.sandboxing;

/** A sandbox could not be started or used (no backend, the engine failed); the message is for the model and user. */
public class SandboxException extends Exception {
    public SandboxException(String message) {
        super(message);
    }

    public SandboxException(String message, Throwable cause) {
        super(message, cause);
    }
}
