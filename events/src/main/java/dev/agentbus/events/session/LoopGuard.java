package dev.agentbus.events.session;

/**
 * The loop guards of the agent loop: each watches the running turn for one way of going round in circles. The
 * orchestrator's {@code agentbus.loop-guard.*} settings say after how many times each one steps in.
 */
public enum LoopGuard {
    /** The model asked for the same tool with the same arguments several times in a row. */
    REPEATED_CALL,
    /** Several model calls in a row made no progress: no tool call changed anything, no new answer text. */
    NO_PROGRESS,
    /** Several tool calls in a row failed. */
    TOOL_ERRORS,
    /** The model replied with nothing (no text, no tool call) several times in a row. */
    EMPTY_REPLIES
}
