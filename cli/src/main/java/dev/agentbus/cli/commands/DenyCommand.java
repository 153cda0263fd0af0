package dev.agentbus.cli.commands;

import dev.agentbus.cli.AgentbusCli;
import dev.agentbus.cli.ExitCodes;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

import java.util.concurrent.Callable;

/** {@code agentbus deny ID CALL_ID [--note TEXT]}: the call does not run; the model reads the note. */
@Command(mixinStandardHelpOptions = true, versionProvider = AgentbusCli.Version.class, name = "deny",
        description = "Deny a tool call that waits for approval; the model is told, with your note.")
public final class DenyCommand implements Callable<Integer> {

    @ParentCommand
    AgentbusCli cli;

    @Parameters(index = "0", paramLabel = "ID", description = "The session id.")
    String sessionId;

    @Parameters(index = "1", paramLabel = "CALL_ID", description = "The call's id, as the approval line shows it.")
    String callId;

    @Option(names = "--note", paramLabel = "TEXT", description = "Why, or what to do instead: the model reads it.")
    String note;

    @Override
    public Integer call() {
        cli.gateway().turns().decideApproval(sessionId, callId, "deny", note);
        cli.printer().println("denied: " + callId + " in session " + sessionId);
        return ExitCodes.OK;
    }
}
