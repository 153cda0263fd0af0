package dev.agentbus.sandbox.tools;

import dev.agentbus.events.tools.ToolCatalog;
import dev.agentbus.sandbox.checkpointing.Checkpoints;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The worker's tools, built from {@link ToolCatalog}: the catalogue says which tools the sandbox-worker runs (what the
 * model is offered and people may run), and this class holds one implementation per name. A catalogue tool without
 * an implementation, or an implementation the catalogue does not list, stops the worker at start with a message
 * naming it — a tool cannot be offered in one place and missing in the other.
 */
final class ToolRegistry {
    /** What an implementation may need when it is built. */
    record Parts(SandboxSettings settings, Checkpoints checkpoints) {
    }

    /** The implementations by tool name, in the order {@code unknown tool} messages list them. */
    static final Map<String, Function<Parts, Tool>> IMPLEMENTATIONS = implementations();

    private ToolRegistry() {
    }

    private static Map<String, Function<Parts, Tool>> implementations() {
        Map<String, Function<Parts, Tool>> m = new LinkedHashMap<>();
        m.put("read", p -> new ReadTool(p.settings()));
        m.put("write", p -> new WriteTool(p.settings()));
        m.put("edit", p -> new EditTool(p.settings()));
        m.put("ls", p -> new LsTool());
        m.put("glob", p -> new GlobTool());
        m.put("grep", p -> new GrepTool(p.settings()));
        m.put("mkdir", p -> new MkdirTool());
        m.put("copy", p -> new CopyTool(p.settings()));
        m.put("delete", p -> new DeleteTool(p.settings()));
        m.put("shell", p -> new ShellTool(p.settings()));
        m.put("run_command", p -> new RunCommandTool(p.settings()));
        m.put("git_status", p -> new GitTool(GitTool.Action.STATUS, p.settings()));
        m.put("git_diff", p -> new GitTool(GitTool.Action.DIFF, p.settings()));
        m.put("git_add", p -> new GitTool(GitTool.Action.ADD, p.settings()));
        m.put("git_commit", p -> new GitTool(GitTool.Action.COMMIT, p.settings()));
        m.put("git_branch", p -> new GitTool(GitTool.Action.BRANCH, p.settings()));
        m.put("git_log", p -> new GitTool(GitTool.Action.LOG, p.settings()));
        m.put("tmux_new", p -> new TmuxTool(TmuxTool.Action.NEW));
        m.put("tmux_list", p -> new TmuxTool(TmuxTool.Action.LIST));
        m.put("tmux_read", p -> new TmuxTool(TmuxTool.Action.READ));
        m.put("vm_input", p -> new TmuxTool(TmuxTool.Action.INPUT));
        m.put("vm_keys", p -> new TmuxTool(TmuxTool.Action.KEYS));
        m.put("restart_terminal", p -> new RestartTerminalTool());
        m.put("upload", p -> new UploadTool(p.settings()));
        m.put("download", p -> new DownloadTool(p.settings()));
        m.put("rewind", p -> new RewindTool(p.checkpoints()));
        return java.util.Collections.unmodifiableMap(m);
    }

    /** The tool names, checked against the catalogue. */
    static List<String> names() {
        check(ToolCatalog.workerToolNames(), IMPLEMENTATIONS.keySet());
        return List.copyOf(IMPLEMENTATIONS.keySet());
    }

    /** One instance of every tool. */
    static Map<String, Tool> build(Parts parts) {
        Map<String, Tool> tools = new LinkedHashMap<>();
        for (String name : names()) {
            tools.put(name, IMPLEMENTATIONS.get(name).apply(parts));
        }
        return tools;
    }

    /** Fails with both differences named when the catalogue's worker tools and the implementations differ. */
    static void check(List<String> catalogue, java.util.Collection<String> implemented) {
        List<String> missing = new ArrayList<>(catalogue);
        missing.removeAll(implemented);
        List<String> unlisted = new ArrayList<>(implemented);
        unlisted.removeAll(catalogue);
        if (!missing.isEmpty() || !unlisted.isEmpty()) {
            throw new IllegalStateException("the sandbox-worker's tools do not match the tool catalogue (events/"
                    + "…/tools/ToolCatalog): " + (missing.isEmpty() ? "" : "listed but not implemented: " + missing
                    + (unlisted.isEmpty() ? "" : "; ")) + (unlisted.isEmpty() ? ""
                    : "implemented but not listed: " + unlisted));
        }
    }
}
