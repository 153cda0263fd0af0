package dev.agentbus.cli.commands;

import dev.agentbus.cli.ExitCodes;
import dev.agentbus.cli.Printer;
import dev.agentbus.cli.gateway.GatewayClient;
import dev.agentbus.cli.gateway.GatewayException;
import dev.agentbus.cli.render.PlanReviewer;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * {@code run --plan}: the person at the terminal decides the plan, as LMAgent's {@code --plan} asks before it acts.
 * "y" approves; "n" or an empty line rejects; anything else rejects with that text as the note the model reads,
 * so the next plan can take it into account. Standard input read to its end (a script with nothing more to say)
 * cancels the turn: nobody is there to approve.
 */
final class TerminalPlanReview implements PlanReviewer {
    private final GatewayClient gateway;
    private final Printer printer;
    private final BufferedReader in;

    TerminalPlanReview(GatewayClient gateway, Printer printer, InputStream stdin) {
        this.gateway = gateway;
        this.printer = printer;
        this.in = new BufferedReader(new InputStreamReader(stdin, StandardCharsets.UTF_8));
    }

    @Override
    public Integer review(String sessionId, String callId, List<String> steps) {
        printer.print(printer.bold("Approve this plan? [y]es, [n]o, or what to change: "));
        String answer;
        try {
            answer = in.readLine();
        } catch (IOException e) {
            answer = null;
        }
        if (answer == null) {
            printer.newline();
            try {
                gateway.turns().cancelQuickly(sessionId, Duration.ofSeconds(3));
            } catch (GatewayException e) {
                printer.warn("could not cancel the turn: " + e.getMessage());
            }
            printer.error("no answer to the plan on standard input; the turn of session " + sessionId
                    + " is cancelled");
            return ExitCodes.ERROR;
        }
        String text = answer.strip();
        try {
            switch (text.toLowerCase(Locale.ROOT)) {
                case "y", "yes" -> gateway.turns().decidePlan(sessionId, "approve", null);
                case "", "n", "no" -> gateway.turns().decidePlan(sessionId, "reject", null);
                default -> gateway.turns().decidePlan(sessionId, "reject", text);
            }
        } catch (GatewayException e) {
            if (e.kind() != GatewayException.Kind.CONFLICT) {
                throw e;
            }
            // Someone decided it meanwhile (another terminal, the web UI): the stream shows what they chose.
            printer.warn("the plan was decided elsewhere before your answer: " + e.getMessage());
        }
        return null;
    }
}
