package dev.agentbus.events.session;

import java.util.Map;
import java.util.TreeMap;

/**
 * What a persistent shell carries from one command to the next: its working directory and the variables the
 * agent exported. The sandbox-worker records it after every shell command (in {@code tool_call.completed.v1}) and
 * the orchestrator hands the latest one back with every request (in {@code tool_call.requested.v1}), so a session
 * whose sandbox was destroyed, or that moved to another worker, goes on in the same directory with the same
 * variables.
 *
 * @param cwd the working directory, as a path inside the sandbox (for example {@code /workspace/src})
 * @param env the variables the agent set or changed; never the worker's own environment (sorted, for stable JSON)
 */
public record ShellState(String cwd, Map<String, String> env) {
    /** A fresh shell: in the workspace root, nothing exported. */
    public static final ShellState INITIAL = new ShellState("/workspace", Map.of());

    public ShellState {
        cwd = cwd == null || cwd.isBlank() ? "/workspace" : cwd;
        env = env == null ? Map.of() : java.util.Collections.unmodifiableSortedMap(new TreeMap<>(env));
    }
}
