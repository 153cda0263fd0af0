package dev.agentbus.sandbox.tools;

import dev.agentbus.sandbox.sandboxing.SandboxException;
import dev.agentbus.sandbox.workspace.PathRejectedException;

import java.io.IOException;

/** One tool. Implementations may throw freely; {@link ToolExecutor} turns every exception into a failed outcome. */
interface Tool {
    ToolOutcome run(Args args, ToolContext ctx)
            throws ToolFailure, ToolRefusal, PathRejectedException, IOException, InterruptedException,
            SandboxException;

    /**
     * True for a tool that enforces its own, larger output limit ({@code download}: a whole file as base64), so the
     * generic output cap must not cut it. Every other tool's output is capped by {@link ToolExecutor}.
     */
    default boolean limitsItsOwnOutput() {
        return false;
    }
}
