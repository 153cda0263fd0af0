package dev.agentbus.orchestrator.deciding.remembering;

import dev.agentbus.events.insights.InsightSet;
import dev.agentbus.events.session.InjectedInsight;
import dev.agentbus.events.session.SessionEvent.InsightsInjected;
import dev.agentbus.events.state.SessionState;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The decision, at the start of a turn, of which insights go into its prompt. Recorded as
 * {@code insights.injected.v1} so the turn's model calls, a replay and the memory-service's counting of uses and
 * votes all see the same choice; the insight sets are never read again for that turn. An incognito session gets
 * none. A turn that chooses none after one that used some records the empty choice, so its prompt drops them.
 */
public final class Remembering {
    private Remembering() {
    }

    public static Optional<InsightsInjected> atTurnStart(SessionState state, InsightSet insights, Instant now,
                                                         InjectionLimits limits) {
        if (state.context().incognito()) {
            return Optional.empty();
        }
        List<InjectedInsight> chosen = InsightSelection.choose(insights, now, limits);
        if (chosen.isEmpty() && state.context().insights().isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new InsightsInjected(chosen));
    }
}
