package dev.agentbus.cli.render;

import dev.agentbus.cli.ExitCodes;
import dev.agentbus.cli.Printer;
import dev.agentbus.events.session.SessionEvent.TurnEnded;
import dev.agentbus.events.session.TokenUsage;

/**
 * The end of our turn: the final answer unless the model's words showed it already (with --quiet, the answer and
 * nothing else, for scripts), how the turn ended, the tokens it used, and the exit code that outcome means.
 */
final class TurnEnd {
    private final Printer printer;
    private final boolean quiet;
    private final StreamedText text;
    private TokenUsage usage = TokenUsage.ZERO;

    TurnEnd(Printer printer, boolean quiet, StreamedText text) {
        this.printer = printer;
        this.quiet = quiet;
        this.text = text;
    }

    /** Counts a model call of our turn in the tokens the end reports. */
    void add(TokenUsage used) {
        usage = usage.plus(used);
    }

    int ended(TurnEnded ended) {
        text.endStreaming();
        String answer = ended.answer();
        if (quiet) {
            // --quiet is for scripts: stdout gets the answer and nothing else.
            String shown = !Text.isBlank(answer) ? answer : text.lastContent();
            if (!Text.isBlank(shown)) {
                printer.println(shown.strip());
            }
        } else if (!Text.isBlank(answer) && !text.alreadyPrinted(answer)) {
            printer.println(answer.strip());
        }
        String message = Text.isBlank(ended.message()) ? "" : ": " + ended.message();
        if (ended.outcome() == null) {
            printer.error("the turn ended without saying how" + message);
            return ExitCodes.ERROR;
        }
        switch (ended.outcome()) {
            case COMPLETED -> {
            }
            case CANCELLED -> {
                if (!quiet) {
                    printer.println(printer.yellow("⊘ cancelled") + message);
                }
            }
            case ITERATION_CAP -> printer.warn("the turn stopped at the iteration cap" + message);
            case LOOP_DETECTED -> printer.warn("the loop guard stopped the turn" + message);
            case ERROR -> printer.error("the turn failed" + message);
        }
        if (!quiet) {
            printer.println(printer.dim("tokens: " + usage.promptTokens() + " prompt · " + usage.completionTokens()
                    + " completion · " + usage.totalTokens() + " total"));
        }
        return ExitCodes.forOutcome(ended.outcome());
    }
}
