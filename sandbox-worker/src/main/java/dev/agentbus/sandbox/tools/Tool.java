package dev.agentbus.sandbox.tools;

import dev.agentbus.sandbox.workspace.PathRejectedException;
import dev.agentbus.sandbox.workspace.WorkspacePaths;

import java.io.IOException;
import java.util.function.Consumer;

/** One tool. Implementations may throw freely; {@link ToolExecutor} turns every exception into a failed outcome. */
interface Tool {
    ToolOutcome run(Args args, WorkspacePaths workspace, Consumer<String> liveOutput)
            throws ToolFailure, PathRejectedException, IOException, InterruptedException;
}
