package dev.agentbus.cli.commands;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentbus.cli.AgentbusCli;
import dev.agentbus.cli.ExitCodes;
import dev.agentbus.cli.InterruptHook;
import dev.agentbus.cli.Printer;
import dev.agentbus.cli.gateway.GatewayClient;
import dev.agentbus.cli.gateway.GatewayException;
import dev.agentbus.cli.gateway.SessionStream;
import dev.agentbus.cli.render.Text;
import dev.agentbus.cli.render.TurnRenderer;
import dev.agentbus.events.Json;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.Callable;

/**
 * {@code agentbus run "task"}: LMAgent's one-shot mode against the gateway. Posts one message, streams the turn,
 * and exits with a code derived from how the turn ended, so it can be scripted.
 */
@Command(mixinStandardHelpOptions = true, versionProvider = AgentbusCli.Version.class, name = "run", description = {"Give the agent a task and stream the turn until it ends.",
        "Exit code: 0 COMPLETED or CANCELLED, 2 ITERATION_CAP, 1 ERROR/rejected/gateway error, 130 Ctrl-C."})
public final class RunCommand implements Callable<Integer> {

    @ParentCommand
    AgentbusCli cli;

    @Parameters(index = "0", paramLabel = "TASK", description = "What the agent should do.")
    String task;

    @Option(names = "--title", paramLabel = "T", description = "Title of the new session (default: the task, shortened).")
    String title;

    @Option(names = "--session", paramLabel = "ID", description = "Continue this session instead of creating one.")
    String sessionId;

    @Option(names = {"-q", "--quiet"}, description = "Print only the final answer (and errors on stderr).")
    boolean quiet;

    @Option(names = "--no-stream-reasoning", description = "Do not show the model's reasoning.")
    boolean noReasoning;

    private volatile boolean interrupted;

    @Override
    public Integer call() {
        Printer printer = cli.printer();
        GatewayClient gateway = cli.gateway();

        String session;
        long after;
        if (sessionId != null) {
            // Stream from the seq the session is at now: everything after it is this turn.
            after = lastSeq(gateway.session(sessionId));
            session = sessionId;
        } else {
            GatewayClient.CreatedSession created = gateway.createSession(title != null ? title : Text.oneLine(task, 60));
            session = created.id();
            after = 0; // a new session: its whole log is this turn (session.created first)
            if (created.pending()) {
                // The message would only get "no session": say what is actually wrong.
                throw new GatewayException(GatewayException.Kind.HTTP, 202, "the gateway accepted session " + session
                        + " but no orchestrator has created it within 10 s; is an orchestrator running?");
            }
        }
        if (!quiet) {
            printer.println(printer.dim("session " + session));
        }

        TurnRenderer renderer = new TurnRenderer(printer, quiet, !noReasoning);
        SessionStream stream = new SessionStream(gateway, session, after);
        InterruptHook.Registration armed = cli.context().interrupts().arm(() -> interrupt(gateway, session, stream, printer));
        try {
            // Open the stream before posting, so the first tokens are not streamed to nobody; the `after` seq
            // makes the order of the two irrelevant for the durable events.
            stream.connectAhead();
            String inputId;
            try {
                inputId = gateway.postMessage(session, task);
            } catch (GatewayException e) {
                stream.stop();
                if (e.kind() == GatewayException.Kind.CONFLICT) {
                    throw new GatewayException(e.kind(), e.status(), e.getMessage()
                            + " (to stop it: agentbus cancel " + session + ")");
                }
                throw e;
            }
            renderer.expectInput(inputId);
            Integer code = stream.follow(renderer);
            if (interrupted || code == null) {
                return ExitCodes.INTERRUPTED;
            }
            return code;
        } finally {
            armed.close();
            stream.stop();
        }
    }

    /** Ctrl-C: ask the gateway to cancel the turn (bounded, best effort), then stop streaming. */
    private void interrupt(GatewayClient gateway, String session, SessionStream stream, Printer printer) {
        interrupted = true;
        try {
            gateway.cancelQuickly(session, Duration.ofSeconds(3));
            printer.warn("interrupted; asked the gateway to cancel the turn of session " + session);
        } catch (GatewayException e) {
            printer.warn("interrupted; could not cancel the turn: " + e.getMessage());
        } finally {
            stream.stop();
        }
    }

    private static long lastSeq(String stateJson) {
        try {
            JsonNode state = Json.mapper().readTree(stateJson);
            return state.path("lastSeq").asLong(0);
        } catch (IOException e) {
            throw new GatewayException(GatewayException.Kind.PROTOCOL, 200,
                    "the gateway sent a session state that is not JSON: " + e.getMessage());
        }
    }
}
