package dev.agentbus.cli.commands;

import dev.agentbus.api.ForkedSession;
import dev.agentbus.cli.AgentbusCli;
import dev.agentbus.cli.ExitCodes;
import dev.agentbus.cli.Printer;
import dev.agentbus.cli.gateway.TransferApi;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

import java.util.concurrent.Callable;

/**
 * {@code agentbus fork ID --at N}: a new session that starts from this one's state at seq N, with its workspace
 * restored from the checkpoint at N; the original is not touched. Continue it with {@code agentbus run --session}.
 */
@Command(mixinStandardHelpOptions = true, versionProvider = AgentbusCli.Version.class, name = "fork",
        description = {"Fork a session at a seq: a new session with the state and the workspace files as they "
                + "were there.", "Continue it with: agentbus run --session NEW_ID \"...\""})
public final class ForkCommand implements Callable<Integer> {

    @ParentCommand
    AgentbusCli cli;

    @Parameters(index = "0", paramLabel = "ID", description = "The session to fork.")
    String sessionId;

    @Option(names = "--at", required = true, paramLabel = "SEQ",
            description = "The seq to fork at (agentbus replay ID shows them).")
    long atSeq;

    @Option(names = "--title", paramLabel = "T", description = "Title of the fork (default: \"Fork of TITLE at SEQ\").")
    String title;

    @Override
    public Integer call() {
        Printer printer = cli.printer();
        if (atSeq < 1) {
            printer.error("--at must be a seq of the session, 1 or more, not " + atSeq);
            return ExitCodes.USAGE;
        }
        TransferApi.Accepted<ForkedSession> answer = cli.gateway().transfer().fork(sessionId, atSeq, title);
        ForkedSession body = answer.body();
        String id = body.id();
        if (answer.pending()) {
            printer.error("the gateway accepted the fork as session " + id + " but no orchestrator recorded it "
                    + "within its wait; is an orchestrator running?");
            return ExitCodes.ERROR;
        }
        String checkpoint = body.checkpoint();
        printer.println("forked session " + sessionId + " at seq " + atSeq + " as " + id);
        printer.println(printer.dim(checkpoint == null
                ? "no workspace checkpoint at that seq: the fork's workspace starts empty"
                : "workspace restored from checkpoint " + checkpoint));
        return ExitCodes.OK;
    }
}
