package dev.agentbus.eventbus.outgoing;

/**
 * A URL the {@link OutgoingPolicy} does not let the installation reach. Its message is safe to show the user who chose
 * the URL: it names the host and the rule, never anything the remote side said.
 */
public final class OutgoingRefused extends Exception {
    public OutgoingRefused(String message) {
        super(message);
    }
}
