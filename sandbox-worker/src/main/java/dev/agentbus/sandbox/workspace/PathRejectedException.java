package dev.agentbus.sandbox.workspace;

/**
 * A model-supplied path was refused because it does not name a place inside the workspace.
 *
 * <p>Checked on purpose: every caller has to decide what to tell the model, and the message is written to be shown
 * to it as is. It never contains the host location of the workspace, only the path the model gave.
 */
public final class PathRejectedException extends Exception {
    public PathRejectedException(String message) {
        super(message);
    }
}
