package dev.agentbus.cli.commands;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentbus.cli.AgentbusCli;
import dev.agentbus.cli.ExitCodes;
import dev.agentbus.cli.Printer;
import dev.agentbus.cli.gateway.GatewayException;
import dev.agentbus.cli.render.SessionView;
import dev.agentbus.events.Json;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

import java.io.IOException;
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
        String body = cli.gateway().session(sessionId);
        if (json) {
            printer.println(body.strip());
            return ExitCodes.OK;
        }
        JsonNode state;
        try {
            state = Json.mapper().readTree(body);
        } catch (IOException e) {
            state = null;
        }
        if (state == null || !state.isObject()) {
            throw new GatewayException(GatewayException.Kind.PROTOCOL, 200,
                    "the gateway sent a session state that is not a JSON object");
        }
        new SessionView(printer).render(state);
        return ExitCodes.OK;
    }
}
