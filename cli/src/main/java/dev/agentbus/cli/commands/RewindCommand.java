package dev.agentbus.cli.commands;

import dev.agentbus.api.Rewound;
import dev.agentbus.cli.AgentbusCli;
import dev.agentbus.cli.ExitCodes;
import dev.agentbus.cli.Printer;
import dev.agentbus.cli.gateway.TransferApi;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

import java.util.concurrent.Callable;

/**
 * {@code agentbus rewind ID CHECKPOINT}: puts the session's workspace files back as they were at a checkpoint. The
 * rewind is a tool call in the log and is checkpointed itself, so it can be undone by rewinding again.
 */
@Command(mixinStandardHelpOptions = true, versionProvider = AgentbusCli.Version.class, name = "rewind",
        description = {"Restore a session's workspace files to a checkpoint (agentbus replay ID lists them).",
                "Only while no turn runs. The rewind is itself checkpointed, so it can be undone."})
public final class RewindCommand implements Callable<Integer> {

    @ParentCommand
    AgentbusCli cli;

    @Parameters(index = "0", paramLabel = "ID", description = "The session id.")
    String sessionId;

    @Parameters(index = "1", paramLabel = "CHECKPOINT", description = "A checkpoint id, or a unique prefix of at "
            + "least 7 characters.")
    String checkpoint;

    @Override
    public Integer call() {
        Printer printer = cli.printer();
        TransferApi.Accepted<Rewound> answer = cli.gateway().transfer().rewind(sessionId, checkpoint);
        Rewound body = answer.body();
        if (answer.pending()) {
            printer.error("the rewind (call " + body.callId() + ") has not finished yet; see "
                    + "agentbus events " + sessionId);
            return ExitCodes.ERROR;
        }
        printer.println("restored the workspace of session " + sessionId + " to checkpoint "
                + body.restored());
        String after = body.checkpoint();
        if (after != null) {
            printer.println(printer.dim("the rewind is checkpoint " + after + " (rewind to the one before it to "
                    + "undo)"));
        }
        return ExitCodes.OK;
    }
}
