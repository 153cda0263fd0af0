package dev.agentbus.orchestrator.deciding.remembering;

import dev.agentbus.events.insights.InsightSet;
import dev.agentbus.events.memory.MemoryDocument;
import dev.agentbus.events.session.InjectedInsight;
import dev.agentbus.events.session.SessionEvent;
import dev.agentbus.events.session.SessionEvent.InsightsInjected;
import dev.agentbus.events.session.SessionEvent.MemoryAttached;
import dev.agentbus.events.state.SessionState;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The decision, at the start of a turn, of which memory goes into its prompt: the owner's memory document when it
 * differs from the one the session last used ({@code memory.attached.v1}), then the insights chosen for the turn
 * ({@code insights.injected.v1}). Recorded so the turn's model calls, a replay and the memory-service's counting of
 * uses and votes all see the same choice; the insight sets are never read again for that turn. An incognito session
 * gets no insights. A turn a group member starts gets neither ({@link OwnerOnlyMemory}). A turn that chooses none
 * after one that used some records the empty choice, so its prompt drops them.
 */
public final class Remembering {
    private Remembering() {
    }

    /**
     * @param startedBy who sent the input that starts the turn; null when the orchestrator starts it for the owner
     *                  (an inbox task, a sub-agent)
     * @param memory    the owner's memory document as last read; null when none is known
     */
    public static List<SessionEvent> atTurnStart(SessionState state, String startedBy, MemoryDocument memory,
                                                 InsightSet insights, Instant now, InjectionLimits limits) {
        if (OwnerOnlyMemory.byMember(state, startedBy)) {
            return OwnerOnlyMemory.withhold(state);
        }
        List<SessionEvent> out = new ArrayList<>();
        if (memory != null) {
            String content = memory.content() == null ? "" : memory.content();
            // After a member's turn the owner's document comes back even when its text is the one recorded before.
            if (!content.equals(state.memory()) || OwnerOnlyMemory.withheld(state)) {
                out.add(new MemoryAttached(content, memory.version()));
            }
        }
        insights(state, insights, now, limits).ifPresent(out::add);
        return out;
    }

    private static Optional<InsightsInjected> insights(SessionState state, InsightSet insights, Instant now,
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
