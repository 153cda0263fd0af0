package dev.agentbus.orchestrator.deciding;

/**
 * After how many times each loop guard steps in (0 turns a guard off). The orchestrator takes them from
 * {@code agentbus.loop-guard.*}; see docs/configuration.md.
 *
 * @param repeatedCalls  the same tool with the same arguments this many times in a row
 * @param noProgress     this many model calls in a row without progress (no tool call that changed a file, no new
 *                       answer text)
 * @param toolErrors     this many failed tool calls in a row
 * @param emptyReplies   this many replies in a row with neither text nor a tool call
 */
public record LoopLimits(int repeatedCalls, int noProgress, int toolErrors, int emptyReplies) {
    /** LMAgent's limits, which Agentbus takes as its defaults. */
    public static final LoopLimits DEFAULTS = new LoopLimits(3, 8, 5, 2);
    /** Every guard off: how Agentbus ran before it had them. */
    public static final LoopLimits OFF = new LoopLimits(0, 0, 0, 0);

    public LoopLimits {
        if (repeatedCalls < 0 || noProgress < 0 || toolErrors < 0 || emptyReplies < 0) {
            throw new IllegalArgumentException("loop guard limits are 0 (off) or more");
        }
    }
}
