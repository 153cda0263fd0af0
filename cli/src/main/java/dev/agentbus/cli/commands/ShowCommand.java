package dev.agentbus.cli.commands;

import dev.agentbus.cli.AgentbusCli;
import dev.agentbus.cli.ExitCodes;
import dev.agentbus.cli.Printer;
import dev.agentbus.cli.render.SessionView;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

import java.util.concurrent.Callable;

/** {@code agentbus show ID}: one session's folded state, for people (or raw with --json). */
@Command(mixinStandardHelpOptions = true, versionProvider = AgentbusCli.Version.class, name = "show", description = "Show a session: status, conversation, tool calls, token usage.")
public final class ShowCommand implements Callable<Integer> {

    @ParentCommand
    AgentbusCli cli;

    @Parameters(index = "0", paramLabel = "ID", description = "The session id.")
    String sessionId;

    @Option(names = "--json", description = "Print the session state JSON as the gateway sent it.")
    boolean json;

    @Override
    public Integer call() {
        Printer printer = cli.printer();
        String body = cli.gateway().sessions().details(sessionId);
        if (json) {
            printer.println(body.strip());
            return ExitCodes.OK;
        }
        new SessionView(printer).render(SessionView.parse(body));
        return ExitCodes.OK;
    }
}
