package dev.agentbus.eventbus.outgoing;

/**
 * A URL the {@link OutgoingPolicy} does not let the installation reach. Its message is safe to show the user who chose
 * the URL: it names the host and the rule, never anything the remote side said.
 */
public final class OutgoingRefused extends Exception {
    private final boolean unresolved;

    public OutgoingRefused(String message) {
        this(message, false);
    }

    OutgoingRefused(String message, boolean unresolved) {
        super(message);
        this.unresolved = unresolved;
    }

    /**
     * Whether the host could not be resolved (now): a URL saved for later may still be right, so a check at saving
     * time lets it pass, and the check before each request refuses it while it does not resolve.
     */
    public boolean unresolved() {
        return unresolved;
    }
}
