package dev.agentbus.events.tools;

/**
 * A tool the model may call: its name, what it does, the JSON schema of its arguments, and which service runs it.
 */
public record ToolSpec(String name, String description, String parametersSchema, Executor executor) {
    public enum Executor {
        /** Run by the sandbox-worker, in the session's workspace. */
        SANDBOX,
        /** Answered by the orchestrator's decider itself (no side effect outside the log). */
        ORCHESTRATOR
    }
}
