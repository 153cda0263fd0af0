package dev.agentbus.sandbox.tools;

import dev.agentbus.sandbox.sandboxing.SandboxException;
import dev.agentbus.sandbox.workspace.PathRejectedException;

import java.io.IOException;

/** One tool. Implementations may throw freely; {@link ToolExecutor} turns every exception into a failed outcome. */
interface Tool {
    ToolOutcome run(Args args, ToolContext ctx)
            throws ToolFailure, PathRejectedException, IOException, InterruptedException, SandboxException;
}
