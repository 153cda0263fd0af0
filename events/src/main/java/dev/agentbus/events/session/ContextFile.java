package dev.agentbus.events.session;

/**
 * One context file of a session's workspace as the sandbox-worker found it: the personality file {@code .soul.md}
 * or a project file ({@code AGENTS.md}, {@code .agentbus.md}). Their text joins the session's system prompt.
 *
 * @param name      the file's name in the workspace root
 * @param content   its text, secrets masked, cut at the worker's limit
 * @param truncated whether the file was longer than the limit ({@code agentbus.sandbox.context-file-max-chars})
 */
public record ContextFile(String name, String content, boolean truncated) {
    /** The personality file: who the agent is, in the person's words (LMAgent's soul). */
    public static final String SOUL = ".soul.md";
    /** The project file: how to work in this project (the AGENTS.md convention). */
    public static final String AGENTS = "AGENTS.md";
    /** The project file under Agentbus's own name, for projects that keep AGENTS.md for other tools. */
    public static final String AGENTBUS = ".agentbus.md";

    /** The names the worker looks for, in the order they join the prompt. */
    public static final java.util.List<String> NAMES = java.util.List.of(SOUL, AGENTS, AGENTBUS);

    public ContextFile {
        content = content == null ? "" : content;
    }

    @com.fasterxml.jackson.annotation.JsonIgnore
    public boolean isSoul() {
        return SOUL.equals(name);
    }
}
