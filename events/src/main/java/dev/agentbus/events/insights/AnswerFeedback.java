package dev.agentbus.events.insights;

import dev.agentbus.events.session.Vote;
import dev.agentbus.events.state.Message;
import dev.agentbus.events.state.SessionState;

import java.util.Optional;

/**
 * Whether a person's thumbs on {@code seq} can be taken: it must name an answer of the session, an assistant message
 * with text (its {@code model_call.completed.v1}). Pure; the gateway checks it early, to answer 400 or 409 at once,
 * and the orchestrator's decider checks it again on the input, against the state it owns.
 */
public final class AnswerFeedback {
    private AnswerFeedback() {
    }

    /** Why the vote cannot be taken, or empty when it can. */
    public static Optional<String> refusal(SessionState state, long seq, Vote vote) {
        if (vote == null) {
            return Optional.of("vote must be \"up\" or \"down\"");
        }
        if (state.context().incognito()) {
            return Optional.of("the session is incognito: votes in it do not reach memory");
        }
        boolean answer = state.messages().stream().anyMatch(m -> m.seq() == seq
                && m instanceof Message.Assistant a && a.content() != null && !a.content().isBlank());
        return answer ? Optional.empty()
                : Optional.of("seq " + seq + " is not an answer of the session (an assistant message with text)");
    }
}
