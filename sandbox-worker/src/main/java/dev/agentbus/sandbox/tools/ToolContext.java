package dev.agentbus.sandbox.tools;

import dev.agentbus.sandbox.sandboxing.Sandbox;
import dev.agentbus.sandbox.sandboxing.SandboxException;
import dev.agentbus.sandbox.sandboxing.SandboxProvider;
import dev.agentbus.sandbox.sandboxing.SandboxSpec;
import dev.agentbus.sandbox.workspace.WorkspacePaths;

import java.util.function.Consumer;

/**
 * What one tool call may use: the session's workspace (for the file tools, which work on the host side through
 * {@link WorkspacePaths}'s guards) and, only when asked for, the session's sandbox (for anything that runs a
 * program). The sandbox is acquired lazily so a {@code read} never starts a container.
 *
 * @param liveOutput receives output text as it is produced, for the session-stream topic; never null
 * @param byUser     a person runs the call directly (a user tool), not the model: tools that only people may run
 *                   refuse otherwise, even if the orchestrator let the call through
 */
record ToolContext(WorkspacePaths workspace, SandboxSpec spec, SandboxProvider sandboxes,
                          Consumer<String> liveOutput, boolean byUser) {

    public ToolContext {
        liveOutput = liveOutput == null ? text -> { } : liveOutput;
    }

    /** The session's running sandbox, started if needed. */
    public Sandbox sandbox() throws SandboxException {
        return sandboxes.acquire(spec);
    }
}
