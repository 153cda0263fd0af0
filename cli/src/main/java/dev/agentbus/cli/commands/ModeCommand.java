package dev.agentbus.cli.commands;

import dev.agentbus.cli.AgentbusCli;
import dev.agentbus.cli.ExitCodes;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

import java.util.concurrent.Callable;

/** {@code agentbus mode ID auto|normal|manual}: which tool calls of the session wait for a person from now on. */
@Command(mixinStandardHelpOptions = true, versionProvider = AgentbusCli.Version.class, name = "mode",
        description = "Set a session's permission mode: auto (no approvals), normal (approve changes, commands "
                + "and network), manual (approve every tool).")
public final class ModeCommand implements Callable<Integer> {

    @ParentCommand
    AgentbusCli cli;

    @Parameters(index = "0", paramLabel = "ID", description = "The session id.")
    String sessionId;

    @Parameters(index = "1", paramLabel = "MODE", description = "auto, normal or manual.")
    String mode;

    @Override
    public Integer call() {
        cli.gateway().turns().setPermissionMode(sessionId, mode);
        cli.printer().println("permission mode of session " + sessionId + ": " + mode);
        return ExitCodes.OK;
    }
}
