package dev.agentbus.cli.commands;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentbus.cli.AgentbusCli;
import dev.agentbus.cli.ExitCodes;
import dev.agentbus.cli.InterruptHook;
import dev.agentbus.cli.Printer;
import dev.agentbus.cli.gateway.GatewayClient;
import dev.agentbus.cli.gateway.SessionStream;
import dev.agentbus.events.Json;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

import java.io.IOException;
import java.util.concurrent.Callable;

/**
 * {@code agentbus events ID [--follow]}: the session's log as JSON Lines, the same format as an exported session,
 * so it can be piped to jq or saved as a fixture. Only durable events are printed; token deltas are not events.
 */
@Command(mixinStandardHelpOptions = true, versionProvider = AgentbusCli.Version.class, name = "events", description = {"Print a session's event log as JSON Lines (one envelope per line).",
        "With --follow, keep printing new events as they happen (until Ctrl-C)."})
public final class EventsCommand implements Callable<Integer> {

    @ParentCommand
    AgentbusCli cli;

    @Parameters(index = "0", paramLabel = "ID", description = "The session id.")
    String sessionId;

    @Option(names = {"-f", "--follow"}, description = "After the log, follow the live event stream.")
    boolean follow;

    @Override
    public Integer call() {
        Printer printer = cli.printer();
        GatewayClient gateway = cli.gateway();
        long lastSeq = 0;
        for (String line : gateway.sessions().log(sessionId)) {
            printer.println(line.strip());
            lastSeq = Math.max(lastSeq, seqOf(line));
        }
        if (!follow) {
            return ExitCodes.OK;
        }
        SessionStream stream = new SessionStream(gateway, sessionId, lastSeq);
        InterruptHook.Registration armed = cli.context().interrupts().arm(stream::stop);
        try {
            stream.follow(new SessionStream.Listener() {
                @Override
                public Integer onEvent(JsonNode envelope) {
                    // toString() is compact JSON: one envelope per line even if the server split data over lines.
                    printer.println(envelope.toString());
                    return null; // never done by itself: --follow ends with Ctrl-C
                }

                @Override
                public void onWarning(String message) {
                    printer.warn(message);
                }
            });
            return ExitCodes.INTERRUPTED;
        } finally {
            armed.close();
            stream.stop();
        }
    }

    private static long seqOf(String line) {
        try {
            return Json.mapper().readTree(line).path("seq").asLong(0);
        } catch (IOException notJson) {
            return 0;
        }
    }
}
