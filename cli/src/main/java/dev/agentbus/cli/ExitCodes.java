package dev.agentbus.cli;

import dev.agentbus.events.session.TurnOutcome;

/**
 * The process exit codes, one place so docs/cli.md has a single source to agree with.
 *
 * <p>0/1/2/130 are LMAgent's one-shot codes, kept because people script against them. Usage errors use 64
 * (sysexits' EX_USAGE) instead of picocli's default 2: with 2, a script that retries {@code run} with a bigger budget
 * on ITERATION_CAP would also "retry" a typo in its own command line forever.
 */
public final class ExitCodes {
    /** The command did what was asked; for {@code run}: the turn COMPLETED or was CANCELLED. */
    public static final int OK = 0;
    /** The turn ended in ERROR, the input was rejected, or the gateway could not be used. */
    public static final int ERROR = 1;
    /** The turn stopped at the iteration cap. */
    public static final int ITERATION_CAP = 2;
    /** The command line could not be parsed (sysexits EX_USAGE). */
    public static final int USAGE = 64;
    /** Ctrl-C: 128 + SIGINT, what shells report for an interrupted program. */
    public static final int INTERRUPTED = 130;

    private ExitCodes() {
    }

    public static int forOutcome(TurnOutcome outcome) {
        if (outcome == null) {
            return ERROR;
        }
        return switch (outcome) {
            case COMPLETED, CANCELLED -> OK;
            // A loop guard, like the cap, is a limit the turn ran into: a script may retry with a better task.
            case ITERATION_CAP, LOOP_DETECTED -> ITERATION_CAP;
            case ERROR -> ERROR;
        };
    }
}
