package dev.agentbus.orchestrator.deciding;

/**
 * When the decider compacts the conversation ({@code agentbus.context.*}).
 *
 * @param compactAt          the share of the context window a prompt may fill before older messages are summarised;
 *                           0: never on its own
 * @param keepRecentMessages the newest messages that are never summarised
 */
public record ContextLimits(double compactAt, int keepRecentMessages) {
    public static final ContextLimits DEFAULTS = new ContextLimits(0.8, 20);
}
