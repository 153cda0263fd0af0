package dev.agentbus.cli.commands;

import dev.agentbus.api.SessionListEntry;
import dev.agentbus.cli.AgentbusCli;
import dev.agentbus.cli.ExitCodes;
import dev.agentbus.cli.Printer;
import dev.agentbus.cli.render.SessionTable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

import java.util.List;
import java.util.concurrent.Callable;

/** {@code agentbus sessions}: the gateway's session list as a table. */
@Command(mixinStandardHelpOptions = true, versionProvider = AgentbusCli.Version.class, name = "sessions", description = "List sessions: id, status, title, last update, tokens used.")
public final class SessionsCommand implements Callable<Integer> {

    @ParentCommand
    AgentbusCli cli;

    @Option(names = "--json", description = "Print the gateway's JSON as is.")
    boolean json;

    @Override
    public Integer call() {
        Printer printer = cli.printer();
        String body = cli.gateway().sessions().list();
        if (json) {
            printer.println(body.strip());
            return ExitCodes.OK;
        }
        List<SessionListEntry> sessions = SessionTable.parse(body);
        if (sessions.isEmpty()) {
            printer.println("no sessions yet; start one with: agentbus run \"task\"");
            return ExitCodes.OK;
        }
        SessionTable.render(printer, sessions, null);
        return ExitCodes.OK;
    }
}
