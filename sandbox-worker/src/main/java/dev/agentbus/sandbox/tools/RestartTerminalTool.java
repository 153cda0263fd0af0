package dev.agentbus.sandbox.tools;

import dev.agentbus.events.session.ShellState;
import dev.agentbus.sandbox.sandboxing.Sandbox;
import dev.agentbus.sandbox.sandboxing.SandboxException;

/**
 * {@code restart_terminal {}}: destroys the session's sandbox and starts a fresh one from the shell state recorded
 * in the log (OS-Agent's restart_terminal). The outcome tells the session what it got: the same working directory,
 * exported variables and files, but none of the programs that were running (tmux included). The new shell state is
 * recorded with the result, like after a shell command.
 */
final class RestartTerminalTool implements Tool {
    @Override
    public ToolOutcome run(Args args, ToolContext ctx) throws SandboxException {
        Sandbox fresh = ctx.sandboxes().restart(ctx.spec());
        ShellState state = fresh.state();
        String variables = state.env().isEmpty() ? "none" : String.join(", ", state.env().keySet());
        String text = "The terminal was restarted: this is a fresh " + fresh.backend() + " sandbox.\n"
                + "Kept: the workspace's files, the working directory (" + state.cwd() + ") and the exported "
                + "variables (" + variables + ").\n"
                + "Gone: every program that was running, including tmux sessions and their windows, and anything "
                + "outside the workspace such as /tmp.\n";
        return new ToolOutcome(true, text, null, null, false, state, null);
    }
}
