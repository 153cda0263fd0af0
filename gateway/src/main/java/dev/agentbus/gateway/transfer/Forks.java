package dev.agentbus.gateway.transfer;

import dev.agentbus.events.input.SessionInput.ForkSession;
import dev.agentbus.events.session.EventEnvelope;
import dev.agentbus.events.state.SessionFold;
import dev.agentbus.events.state.SessionState;

import java.util.List;

/**
 * Builds the {@code fork_session.v1} input for a fork and for an import, from a log: the state is the fold of the
 * events up to the seq, so the new session's orchestrator (which may own another partition) never reads the source.
 */
final class Forks {
    private Forks() {
    }

    /**
     * A fork of a session at {@code atSeq}, with the workspace checkpoint that was the latest at that seq.
     *
     * @throws IllegalArgumentException when atSeq is not a seq of the log
     */
    public static ForkSession at(List<EventEnvelope> log, long atSeq, String title) {
        if (log.isEmpty()) {
            throw new IllegalArgumentException("the session has no events");
        }
        long last = log.getLast().seq();
        if (atSeq < 1 || atSeq > last) {
            throw new IllegalArgumentException("atSeq must be between 1 and " + last + " (the session's last seq), not "
                    + atSeq);
        }
        String sessionId = log.getFirst().sessionId();
        SessionState state = SessionFold.fold(sessionId, log.stream().filter(e -> e.seq() <= atSeq).toList());
        return new ForkSession(sessionId, atSeq, state.checkpoint(), state, blankToNull(title));
    }

    /**
     * An imported log becomes a new session forked from the file's session at its last seq. Its checkpoint is left
     * out: the files were on another machine, so the imported session's workspace starts empty.
     */
    public static ForkSession imported(List<EventEnvelope> log, String title) {
        ForkSession whole = at(log, log.getLast().seq(), null);
        String name = blankToNull(title) != null ? title.strip()
                : (whole.state().title() == null ? "Imported session" : whole.state().title() + " (imported)");
        return new ForkSession(whole.fromSessionId(), whole.atSeq(), null, whole.state(), name);
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s.strip();
    }
}
