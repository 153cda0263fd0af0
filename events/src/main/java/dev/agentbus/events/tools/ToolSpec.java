package dev.agentbus.events.tools;

/**
 * A tool: its name, what it does, the JSON schema of its arguments, which service runs it, and whether only people
 * may run it.
 *
 * @param userOnly only a person runs it (through the gateway, as {@code run_user_tool.v1}); it is never offered to
 *                 the model, and a model call to it is answered with an error. Upload, download and rewind are such
 *                 tools: they move whole files in and out, or undo the agent's work, which is the user's decision.
 */
public record ToolSpec(String name, String description, String parametersSchema, Executor executor,
                       boolean userOnly) {
    public enum Executor {
        /** Run by the sandbox-worker, in the session's workspace. */
        SANDBOX,
        /** Answered by the orchestrator's decider itself (no side effect outside the log). */
        ORCHESTRATOR
    }

    /** A tool the model may call. */
    public ToolSpec(String name, String description, String parametersSchema, Executor executor) {
        this(name, description, parametersSchema, executor, false);
    }
}
