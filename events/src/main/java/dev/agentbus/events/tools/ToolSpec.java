package dev.agentbus.events.tools;

/**
 * A tool: its name, what it does, the JSON schema of its arguments, which service runs it, whether only people
 * may run it, and its risk class.
 *
 * @param userOnly only a person runs it (through the gateway, as {@code run_user_tool.v1}); it is never offered to
 *                 the model, and a model call to it is answered with an error. Upload, download and rewind are such
 *                 tools: they move whole files in and out, or undo the agent's work, which is the user's decision.
 * @param risk     how much harm a call can do; with the session's permission mode it decides whether a call of the
 *                 model waits for a person's approval (a person's own calls never do)
 */
public record ToolSpec(String name, String description, String parametersSchema, Executor executor,
                       boolean userOnly, Risk risk) {
    public enum Executor {
        /** Run by the sandbox-worker, in the session's workspace. */
        SANDBOX,
        /** Answered by the orchestrator's decider itself (no side effect outside the log). */
        ORCHESTRATOR
    }

    public ToolSpec {
        if (risk == null) {
            throw new IllegalArgumentException("tool " + name + " needs a risk class");
        }
    }
}
