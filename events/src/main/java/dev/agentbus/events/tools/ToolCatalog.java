package dev.agentbus.events.tools;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Every tool there is. It is part of the schema because a {@code tool_call.requested.v1} event is only meaningful
 * together with the tool's contract: the orchestrator offers {@link #TOOLS} to the model, a person may run the
 * {@link #USER_TOOLS} through the gateway, and the sandbox-worker builds its tool registry from the SANDBOX ones
 * ({@link #workerToolNames()}: it refuses to start without an implementation of each, and has none that is not
 * here). docs/tools.md describes each tool. MCP servers add tools per session at run time (the session's state
 * has them; the orchestrator's deciding/mcp/McpTools offers them next to these).
 */
public final class ToolCatalog {
    /** The agent's notification to the user (OS-Agent's), which the orchestrator answers itself. */
    public static final String SEND_NOTIFICATION = "send_notification";
    /**
     * The longest notification the agent may send (what the notification queue keeps of a body); a longer one is
     * refused, so the model shortens it rather than the person reading it cut off.
     */
    public static final int MAX_NOTIFICATION_CHARS = 500;
    /**
     * Lists, adds, rewrites or deletes the user's insights (OS-Agent's {@code manage_memory}); the orchestrator answers
     * it and records each change as {@code memory.managed.v1}, which the memory-service applies.
     */
    public static final String MANAGE_MEMORY = "manage_memory";
    /** Starts a sub-agent, a child session the parent waits for; the orchestrator answers it with the child's answer. */
    public static final String TASK = "task";

    private static final String PATH = "{\"type\":\"string\",\"description\":\"path relative to the workspace root\"}";
    private static final String TARGET = """
            "target":{"type":"string","description":"tmux pane, e.g. agentbus:1.0 or %3 (see tmux_list); \
            default: the current window of the agentbus session"}""";

    /** The tools offered to the model, in the order it sees them: the planning tools come last. */
    public static final List<ToolSpec> TOOLS = Stream.concat(Stream.of(
            sandbox("read", Risk.LOW, "Read a text file from the workspace, optionally only a range of lines.",
                    "{\"type\":\"object\",\"properties\":{\"path\":" + PATH
                            + ",\"start_line\":{\"type\":\"integer\",\"description\":\"first line, 1-based\"},"
                            + "\"end_line\":{\"type\":\"integer\",\"description\":\"last line, inclusive\"}},"
                            + "\"required\":[\"path\"]}"),
            sandbox("write", Risk.MEDIUM, "Create or overwrite a file in the workspace with the given content.",
                    "{\"type\":\"object\",\"properties\":{\"path\":" + PATH
                            + ",\"content\":{\"type\":\"string\"}},\"required\":[\"path\",\"content\"]}"),
            sandbox("edit", Risk.MEDIUM, "Replace an exact piece of text in a file. Fails if the text is missing, or appears "
                            + "more than once and replace_all is not set. Returns a unified diff.",
                    "{\"type\":\"object\",\"properties\":{\"path\":" + PATH
                            + ",\"old_text\":{\"type\":\"string\"},\"new_text\":{\"type\":\"string\"},"
                            + "\"replace_all\":{\"type\":\"boolean\"}},\"required\":[\"path\",\"old_text\",\"new_text\"]}"),
            sandbox("ls", Risk.LOW, "List a directory of the workspace (directories end with /).",
                    "{\"type\":\"object\",\"properties\":{\"path\":" + PATH + "}}"),
            sandbox("glob", Risk.LOW, "Find files whose workspace-relative path matches a glob such as **/*.java.",
                    "{\"type\":\"object\",\"properties\":{\"pattern\":{\"type\":\"string\"},\"path\":" + PATH
                            + "},\"required\":[\"pattern\"]}"),
            sandbox("grep", Risk.LOW, "Search file contents with a regular expression; prints file:line: text.",
                    "{\"type\":\"object\",\"properties\":{\"pattern\":{\"type\":\"string\"},\"path\":" + PATH
                            + ",\"glob\":{\"type\":\"string\",\"description\":\"only files matching this glob\"}},"
                            + "\"required\":[\"pattern\"]}"),
            sandbox("mkdir", Risk.MEDIUM, "Create a directory (and its parents) in the workspace.",
                    "{\"type\":\"object\",\"properties\":{\"path\":" + PATH + "},\"required\":[\"path\"]}"),
            sandbox("shell", Risk.HIGH, "Run a shell command line (sh -c) in the persistent shell of the sandbox: cd and "
                            + "export carry over to later calls. Output is capped and streamed live; a command "
                            + "still running after timeout_seconds is killed with everything it started. Commands "
                            + "on the blocked list and absolute paths outside /workspace are refused.",
                    "{\"type\":\"object\",\"properties\":{\"command\":{\"type\":\"string\"},"
                            + "\"timeout_seconds\":{\"type\":\"integer\",\"minimum\":1,\"maximum\":120}},"
                            + "\"required\":[\"command\"]}"),
            sandbox("copy", Risk.MEDIUM, "Copy a file inside the workspace. An existing destination is only replaced with "
                            + "overwrite=true, after a backup. Returns a diff of the destination.", """
                    {"type":"object","properties":{"from":%s,"to":%s,"overwrite":{"type":"boolean"}},\
                    "required":["from","to"]}""".formatted(PATH, PATH)),
            sandbox("delete", Risk.MEDIUM, "Delete a file, or a directory with recursive=true. A backup is taken first "
                            + "(outside the workspace). Returns a diff of a deleted text file.", """
                    {"type":"object","properties":{"path":%s,"recursive":{"type":"boolean"}},\
                    "required":["path"]}""".formatted(PATH)),
            sandbox("run_command", Risk.HIGH, "Run one program with explicit arguments and no shell: no pipes, redirects, "
                            + "chaining, globbing or variables. Checked against the worker's allow and deny "
                            + "lists; dry_run=true only checks and shows what would run.", """
                    {"type":"object","properties":{\
                    "command":{"type":"string","description":"program name such as ls or git, or ./script"},\
                    "args":{"type":"array","items":{"type":"string"}},\
                    "cwd":{"type":"string","description":"working directory relative to the workspace root"},\
                    "timeout_seconds":{"type":"integer","minimum":1,"maximum":120},\
                    "dry_run":{"type":"boolean"}},"required":["command"]}"""),
            sandbox("git_status", Risk.LOW, "Show the branch and the changed files of the git repository in the workspace.",
                    "{\"type\":\"object\",\"properties\":{}}"),
            sandbox("git_diff", Risk.LOW, "Show changes as a unified diff: of the working tree (default), of what is "
                            + "staged (staged=true), or against a revision.", """
                    {"type":"object","properties":{"path":%s,"staged":{"type":"boolean"},\
                    "revision":{"type":"string","description":"a commit, branch or tag to compare with"}}}"""
                            .formatted(PATH)),
            sandbox("git_add", Risk.HIGH, "Stage files for the next commit (\".\" stages everything).", """
                    {"type":"object","properties":{"paths":{"type":"array","items":%s,"minItems":1}},\
                    "required":["paths"]}""".formatted(PATH)),
            sandbox("git_commit", Risk.HIGH, "Commit the staged changes (all=true: every change to tracked files).", """
                    {"type":"object","properties":{"message":{"type":"string"},"all":{"type":"boolean"}},\
                    "required":["message"]}"""),
            sandbox("git_branch", Risk.HIGH, "Without name: list branches. With name: create that branch, and switch to "
                            + "it if switch=true (an existing branch is switched to).", """
                    {"type":"object","properties":{"name":{"type":"string"},"switch":{"type":"boolean"}}}"""),
            sandbox("git_log", Risk.LOW, "Show recent commits, one line each, optionally only those touching a path.", """
                    {"type":"object","properties":{"limit":{"type":"integer","minimum":1,"maximum":200},\
                    "path":%s}}""".formatted(PATH)),
            sandbox("tmux_new", Risk.HIGH, "Start a program in a new tmux window (or a new pane split from split) of the "
                            + "sandbox's agentbus session, for interactive or long-running programs. Without "
                            + "command it starts an interactive shell. The pane stays open after the program "
                            + "exits so its output can still be read. Returns the pane's target.", """
                    {"type":"object","properties":{"command":{"type":"string"},\
                    "name":{"type":"string","description":"window name"},\
                    "split":{"type":"string","description":"split this pane instead of opening a window"},\
                    "vertical":{"type":"boolean","description":"with split: one above the other"}}}"""),
            sandbox("tmux_list", Risk.LOW, "List the tmux sessions, windows and panes of the sandbox, with the program "
                            + "each pane runs.", "{\"type\":\"object\",\"properties\":{}}"),
            sandbox("tmux_read", Risk.LOW, "Read what a tmux pane shows: its last lines (default 50, at most 2000), "
                            + "including scrollback.", """
                    {"type":"object","properties":{%s,"lines":{"type":"integer","minimum":1,"maximum":2000}}}"""
                            .formatted(TARGET)),
            sandbox("vm_input", Risk.HIGH, "Type text into the program running in a tmux pane (its standard input), "
                            + "followed by Enter unless enter=false. Checked like a shell command.", """
                    {"type":"object","properties":{"data":{"type":"string"},%s,"enter":{"type":"boolean"}},\
                    "required":["data"]}""".formatted(TARGET)),
            sandbox("vm_keys", Risk.HIGH, "Press keys in a tmux pane. Only these keys: Enter, Tab, Escape, Space, BSpace, "
                            + "Up, Down, Left, Right, Home, End, PageUp, PageDown, F1-F12, C-c, C-d, C-z, C-l, "
                            + "C-a, C-e, C-u, C-w, C-r, y, n, q.", """
                    {"type":"object","properties":{"keys":{"type":"array","items":{"type":"string"},\
                    "minItems":1,"maxItems":32},%s},"required":["keys"]}""".formatted(TARGET)),
            sandbox("restart_terminal", Risk.HIGH, "Throw the sandbox away and start a fresh one: every running program and "
                            + "tmux window is stopped; the working directory, the exported variables and the "
                            + "workspace's files are kept. Use it when the terminal hangs or is in a bad state.",
                    "{\"type\":\"object\",\"properties\":{}}"),
            new ToolSpec("wait", "Pause this session until a time, then continue. Give either until "
                    + "(ISO-8601, e.g. 2026-01-31T09:00:00Z) or seconds.",
                    "{\"type\":\"object\",\"properties\":{\"until\":{\"type\":\"string\"},"
                            + "\"seconds\":{\"type\":\"integer\",\"minimum\":0},\"reason\":{\"type\":\"string\"}}}",
                    ToolSpec.Executor.ORCHESTRATOR, false, Risk.LOW),
            new ToolSpec(SEND_NOTIFICATION, "Send the user a notification (it is queued for them and shown when they "
                    + "come back, also while they are away from this session): to tell them a long task is done, or "
                    + "that something needs them. Not for answers: those go in your reply.", """
                    {"type":"object","properties":{"message":{"type":"string","description":"what the user should \
                    know, in one or two sentences"},"urgency":{"type":"string","enum":["low","normal","high"],\
                    "description":"default normal"}},"required":["message"]}""",
                    ToolSpec.Executor.ORCHESTRATOR, false, Risk.LOW),
            new ToolSpec(MANAGE_MEMORY, "Read and keep what you know about the user across conversations: list the "
                    + "insights remembered about them (with ids), add one when they tell you something lasting "
                    + "about themselves, correct one that is wrong or out of date, or delete one. Insights the user "
                    + "protected can only be changed by them. One short fact per insight.", """
                    {"type":"object","properties":{"action":{"type":"string","enum":["list","add","update",\
                    "delete"]},"id":{"type":"string","description":"the insight's id, for update and delete"},\
                    "category":{"type":"string","enum":["identity","skill","preference","project","opinion",\
                    "session_detail"],"description":"what it is about; needed for add"},"text":{"type":"string",\
                    "description":"the fact, for add and update, e.g. prefers tabs over spaces"}},\
                    "required":["action"]}""",
                    ToolSpec.Executor.ORCHESTRATOR, false, Risk.LOW),
            new ToolSpec(TASK, "Hand a self-contained piece of work to a sub-agent: a fresh agent with its own "
                    + "conversation and its own empty workspace, which returns its final answer as this call's result. "
                    + "Several task calls in one reply run in parallel. The sub-agent sees only the prompt, so say "
                    + "everything it needs. By default it has the file tools only (read, write, edit, ls, glob, grep).",
                    """
                    {"type":"object","properties":{"description":{"type":"string","description":"a short title, \
                    a few words"},"prompt":{"type":"string","description":"the complete task for the sub-agent"},\
                    "tools":{"type":"array","items":{"type":"string"},"description":"the tools it may use; default: \
                    the file tools"},"max_iterations":{"type":"integer","minimum":1,"description":"at most this \
                    many model calls"}},"required":["prompt"]}""",
                    ToolSpec.Executor.ORCHESTRATOR, false, Risk.LOW)), PlanningTools.SPECS.stream()).toList();

    /** Tools only people run, through the gateway: never offered to the model. The sandbox-worker runs them. */
    public static final List<ToolSpec> USER_TOOLS = List.of(
            userOnly("upload", Risk.MEDIUM, "Write a file into the workspace (a person's upload; at most 512 KiB).", """
                    {"type":"object","properties":{"path":%s,"content_base64":{"type":"string"}},\
                    "required":["path","content_base64"]}""".formatted(PATH)),
            userOnly("download", Risk.LOW, "Read a file of the workspace for a person to download (at most 512 KiB): the "
                    + "output is a line \"sha256:<hex> bytes:<n>\" and then the content in base64.", """
                    {"type":"object","properties":{"path":%s},"required":["path"]}""".formatted(PATH)),
            userOnly("rewind", Risk.MEDIUM, "Put the workspace back to a checkpoint recorded earlier in the session.", """
                    {"type":"object","properties":{"checkpoint":{"type":"string"}},"required":["checkpoint"]}"""));

    /** Every tool, the model's and the people's. */
    public static final List<ToolSpec> ALL = Stream.concat(TOOLS.stream(), USER_TOOLS.stream()).toList();

    private static final Map<String, ToolSpec> BY_NAME = new LinkedHashMap<>();

    static {
        ALL.forEach(t -> BY_NAME.put(t.name(), t));
    }

    private ToolCatalog() {
    }

    /** Any tool by name, including the user-only ones (check {@link ToolSpec#userOnly()}). */
    public static Optional<ToolSpec> find(String name) {
        return Optional.ofNullable(BY_NAME.get(name));
    }

    /** The names of the tools offered to the model that this executor runs. */
    public static List<String> namesFor(ToolSpec.Executor executor) {
        return TOOLS.stream().filter(t -> t.executor() == executor).map(ToolSpec::name).toList();
    }

    /**
     * Every tool the sandbox-worker runs, the model's and the people's, in catalogue order: the names its tool
     * registry must implement, no more and no fewer.
     */
    public static List<String> workerToolNames() {
        return ALL.stream().filter(t -> t.executor() == ToolSpec.Executor.SANDBOX).map(ToolSpec::name).toList();
    }

    /** The names of the user-only tools. */
    public static List<String> userToolNames() {
        return USER_TOOLS.stream().map(ToolSpec::name).toList();
    }

    private static ToolSpec sandbox(String name, Risk risk, String description, String schema) {
        return new ToolSpec(name, description, schema, ToolSpec.Executor.SANDBOX, false, risk);
    }

    private static ToolSpec userOnly(String name, Risk risk, String description, String schema) {
        return new ToolSpec(name, description, schema, ToolSpec.Executor.SANDBOX, true, risk);
    }
}
