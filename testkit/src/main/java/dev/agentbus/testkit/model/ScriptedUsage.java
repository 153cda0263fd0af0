package dev.agentbus.testkit.model;

/**
 * Token counts a scripted reply reports in its {@code usage} object. When a reply has none, the server
 * computes rough numbers (about four characters per token) so that every reply carries usage, as real
 * servers do.
 */
public record ScriptedUsage(long promptTokens, long completionTokens, long totalTokens) {

    /**
     * Send no {@code usage} at all, like servers that never report it (so a test can check that the
     * client copes). Use with {@link ScriptedReply#withUsage}.
     */
    public static final ScriptedUsage NONE = new ScriptedUsage(-1, -1, -1);

    boolean omitted() {
        return promptTokens < 0;
    }

    public static ScriptedUsage of(long promptTokens, long completionTokens) {
        return new ScriptedUsage(promptTokens, completionTokens, promptTokens + completionTokens);
    }
}
