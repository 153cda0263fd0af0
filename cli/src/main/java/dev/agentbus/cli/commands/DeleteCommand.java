package dev.agentbus.cli.commands;

import dev.agentbus.cli.AgentbusCli;
import dev.agentbus.cli.ExitCodes;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

import java.util.concurrent.Callable;

/** {@code agentbus delete ID}: the session is gone for everyone, with its workspace; the log stays until retention. */
@Command(mixinStandardHelpOptions = true, versionProvider = AgentbusCli.Version.class, name = "delete",
        description = "Delete a session you own: a running turn is stopped, then the session, its files and its "
                + "search entries are removed for everyone it was shared with.")
public final class DeleteCommand implements Callable<Integer> {

    @ParentCommand
    AgentbusCli cli;

    @Parameters(index = "0", paramLabel = "ID", description = "The session id.")
    String sessionId;

    @Override
    public Integer call() {
        cli.gateway().sessions().delete(sessionId);
        cli.printer().println("session " + sessionId + " deleted");
        return ExitCodes.OK;
    }
}
