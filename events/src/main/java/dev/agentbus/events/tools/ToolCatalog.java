package dev.agentbus.events.tools;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The tools offered to the model. It is part of the schema because a {@code tool_call.requested.v1} event is only
 * meaningful together with the tool's contract: the orchestrator offers these, the sandbox-worker implements the
 * SANDBOX ones (a test there checks it implements every one). MCP servers will add tools at run time later.
 */
public final class ToolCatalog {
    private static final String PATH = "{\"type\":\"string\",\"description\":\"path relative to the workspace root\"}";

    public static final List<ToolSpec> TOOLS = List.of(
            sandbox("read", "Read a text file from the workspace, optionally only a range of lines.",
                    "{\"type\":\"object\",\"properties\":{\"path\":" + PATH
                            + ",\"start_line\":{\"type\":\"integer\",\"description\":\"first line, 1-based\"},"
                            + "\"end_line\":{\"type\":\"integer\",\"description\":\"last line, inclusive\"}},"
                            + "\"required\":[\"path\"]}"),
            sandbox("write", "Create or overwrite a file in the workspace with the given content.",
                    "{\"type\":\"object\",\"properties\":{\"path\":" + PATH
                            + ",\"content\":{\"type\":\"string\"}},\"required\":[\"path\",\"content\"]}"),
            sandbox("edit", "Replace an exact piece of text in a file. Fails if the text is missing, or appears "
                            + "more than once and replace_all is not set. Returns a unified diff.",
                    "{\"type\":\"object\",\"properties\":{\"path\":" + PATH
                            + ",\"old_text\":{\"type\":\"string\"},\"new_text\":{\"type\":\"string\"},"
                            + "\"replace_all\":{\"type\":\"boolean\"}},\"required\":[\"path\",\"old_text\",\"new_text\"]}"),
            sandbox("ls", "List a directory of the workspace (directories end with /).",
                    "{\"type\":\"object\",\"properties\":{\"path\":" + PATH + "}}"),
            sandbox("glob", "Find files whose workspace-relative path matches a glob such as **/*.java.",
                    "{\"type\":\"object\",\"properties\":{\"pattern\":{\"type\":\"string\"},\"path\":" + PATH
                            + "},\"required\":[\"pattern\"]}"),
            sandbox("grep", "Search file contents with a regular expression; prints file:line: text.",
                    "{\"type\":\"object\",\"properties\":{\"pattern\":{\"type\":\"string\"},\"path\":" + PATH
                            + ",\"glob\":{\"type\":\"string\",\"description\":\"only files matching this glob\"}},"
                            + "\"required\":[\"pattern\"]}"),
            sandbox("mkdir", "Create a directory (and its parents) in the workspace.",
                    "{\"type\":\"object\",\"properties\":{\"path\":" + PATH + "},\"required\":[\"path\"]}"),
            sandbox("shell", "Run a shell command in the workspace, inside the sandbox. Output is capped.",
                    "{\"type\":\"object\",\"properties\":{\"command\":{\"type\":\"string\"},"
                            + "\"timeout_seconds\":{\"type\":\"integer\",\"minimum\":1,\"maximum\":120}},"
                            + "\"required\":[\"command\"]}"),
            new ToolSpec("wait", "Pause this session until a time, then continue. Give either until "
                    + "(ISO-8601, e.g. 2026-01-31T09:00:00Z) or seconds.",
                    "{\"type\":\"object\",\"properties\":{\"until\":{\"type\":\"string\"},"
                            + "\"seconds\":{\"type\":\"integer\",\"minimum\":0},\"reason\":{\"type\":\"string\"}}}",
                    ToolSpec.Executor.ORCHESTRATOR));

    private static final Map<String, ToolSpec> BY_NAME = new LinkedHashMap<>();

    static {
        TOOLS.forEach(t -> BY_NAME.put(t.name(), t));
    }

    private ToolCatalog() {
    }

    public static Optional<ToolSpec> find(String name) {
        return Optional.ofNullable(BY_NAME.get(name));
    }

    public static List<String> namesFor(ToolSpec.Executor executor) {
        return TOOLS.stream().filter(t -> t.executor() == executor).map(ToolSpec::name).toList();
    }

    private static ToolSpec sandbox(String name, String description, String schema) {
        return new ToolSpec(name, description, schema, ToolSpec.Executor.SANDBOX);
    }
}
