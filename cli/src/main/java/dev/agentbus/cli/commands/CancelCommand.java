package dev.agentbus.cli.commands;

import dev.agentbus.cli.AgentbusCli;
import dev.agentbus.cli.ExitCodes;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

import java.util.concurrent.Callable;

/** {@code agentbus cancel ID}: what to do after a 409 "session is busy", and what Ctrl-C does for `run`. */
@Command(mixinStandardHelpOptions = true, versionProvider = AgentbusCli.Version.class, name = "cancel", description = "Ask the gateway to cancel the running turn of a session.")
public final class CancelCommand implements Callable<Integer> {

    @ParentCommand
    AgentbusCli cli;

    @Parameters(index = "0", paramLabel = "ID", description = "The session id.")
    String sessionId;

    @Override
    public Integer call() {
        cli.gateway().turns().cancel(sessionId);
        cli.printer().println("cancel requested for session " + sessionId);
        return ExitCodes.OK;
    }
}
