package dev.agentbus.sandbox.shell;

/** The command could not be started at all (no bubblewrap, no /bin/sh); the message is meant for the model/user. */
public final class ShellUnavailableException extends Exception {
    public ShellUnavailableException(String message) {
        super(message);
    }
}
