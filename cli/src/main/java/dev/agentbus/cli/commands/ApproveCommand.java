package dev.agentbus.cli.commands;

import dev.agentbus.cli.AgentbusCli;
import dev.agentbus.cli.ExitCodes;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

import java.util.concurrent.Callable;

/**
 * {@code agentbus approve ID CALL_ID [--always] [--note TEXT]}: what the "⏸ approval needed" line tells a person to
 * run. The turn goes on in whatever terminal follows it.
 */
@Command(mixinStandardHelpOptions = true, versionProvider = AgentbusCli.Version.class, name = "approve",
        description = "Approve a tool call that waits for approval (the session is AWAITING_APPROVAL).")
public final class ApproveCommand implements Callable<Integer> {

    @ParentCommand
    AgentbusCli cli;

    @Parameters(index = "0", paramLabel = "ID", description = "The session id.")
    String sessionId;

    @Parameters(index = "1", paramLabel = "CALL_ID", description = "The call's id, as the approval line shows it.")
    String callId;

    @Option(names = "--always", description = "Also allow every later call of this tool in this session.")
    boolean always;

    @Option(names = "--note", paramLabel = "TEXT", description = "A note recorded with the decision.")
    String note;

    @Override
    public Integer call() {
        cli.gateway().turns().decideApproval(sessionId, callId, always ? "always" : "approve", note);
        cli.printer().println((always ? "approved always: " : "approved: ") + callId + " in session " + sessionId);
        return ExitCodes.OK;
    }
}
