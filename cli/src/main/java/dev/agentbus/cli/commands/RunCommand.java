package dev.agentbus.cli.commands;

import dev.agentbus.cli.AgentbusCli;
import dev.agentbus.cli.ExitCodes;
import dev.agentbus.cli.Printer;
import dev.agentbus.cli.gateway.GatewayClient;
import dev.agentbus.cli.gateway.GatewayException;
import dev.agentbus.cli.render.Text;
import dev.agentbus.cli.turn.ImageAttachments;
import dev.agentbus.cli.turn.TurnRunner;

import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

import java.time.Duration;
import java.util.concurrent.Callable;

/**
 * {@code agentbus run "task"}: LMAgent's one-shot mode against the gateway. Posts one message, streams the turn
 * (with {@link TurnRunner}, shared with {@code chat}), and exits with a code derived from how the turn ended, so it
 * can be scripted.
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

    @Option(names = "--plan", description = {"Plan first: the agent proposes a plan and waits for your approval "
            + "(asked here) before it uses any other tool.", "Answer y to approve, n to reject, or type what to change."})
    boolean plan;

    @Option(names = "--model", paramLabel = "NAME", description = {"The new session's own model (see agentbus models); "
            + "default: yours, else the installation's.", "Not with --session: an existing session's model is changed "
            + "with PUT /api/v1/sessions/{id}/model."})
    String model;

    @Option(names = "--image", paramLabel = "FILE", description = {"Attach an image to the task (repeatable): a local "
            + "file is uploaded to the session's workspace under uploads/; workspace:PATH names a file already there.",
            "The session's model must take images, or the turn ends with a refusal."})
    List<String> images = new ArrayList<>();

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        Printer printer = cli.printer();
        GatewayClient gateway = cli.gateway();

        if (sessionId != null && model != null) {
            throw new ParameterException(spec.commandLine(), "--model names the model of a new session; it cannot be "
                    + "used with --session");
        }
        for (String image : images) {
            String problem = ImageAttachments.problem(image);
            if (problem != null) {
                throw new ParameterException(spec.commandLine(), problem);
            }
        }
        String session;
        long after;
        if (sessionId != null) {
            // Stream from the seq the session is at now: everything after it is this turn.
            after = TurnRunner.lastSeq(gateway, sessionId);
            session = sessionId;
        } else {
            session = TurnRunner.createSession(gateway, title != null ? title : Text.oneLine(task, 60), plan, model);
            after = 0; // a new session: its whole log is this turn (session.created first)
        }
        if (!quiet) {
            printer.println(printer.dim("session " + session));
        }

        // No grace after Ctrl-C: for a one-shot command the turn is over when the user says so.
        TurnRunner runner = new TurnRunner(gateway, printer, cli.context().interrupts(), quiet, !noReasoning,
                Duration.ZERO);
        if (plan) {
            runner.reviewPlansWith(new TerminalPlanReview(gateway, printer, cli.context().stdin()));
        }
        TurnRunner.Result result;
        try {
            List<String> attached = ImageAttachments.attach(gateway, session, images);
            if (!attached.isEmpty()) {
                after = TurnRunner.lastSeq(gateway, session); // the uploads are calls in the log, not this turn
            }
            result = runner.send(session, after, task, attached);
        } catch (GatewayException e) {
            if (e.kind() == GatewayException.Kind.CONFLICT) {
                throw new GatewayException(e.kind(), e.status(), e.getMessage()
                        + " (to stop it: agentbus cancel " + session + ")");
            }
            throw e;
        }
        if (result.interrupted() || result.exitCode() == null) {
            return ExitCodes.INTERRUPTED;
        }
        return result.exitCode();
    }
}
