package dev.agentbus.scheduler.schedulingwaits;

import dev.agentbus.events.session.EventEnvelope;
import dev.agentbus.events.session.SessionEvent;
import dev.agentbus.events.state.PendingWait;

import java.util.Collections;
import java.util.HashMap;
import java.util.Map;

/**
 * Which session waits for what, folded from session events: a wait is pending from {@code wait.scheduled.v1}
 * until {@code wait.ended.v1} or the end of its turn. Plain and single-threaded; the caller owns the timers.
 */
final class PendingWaits {
    /** What folding one event changed: a wait to arm, a wait to disarm, or nothing. */
    public sealed interface Change {
        record Armed(String sessionId, PendingWait pendingWait) implements Change {
        }

        record Disarmed(String sessionId, String waitId) implements Change {
        }

        record None() implements Change {
        }
    }

    private final Map<String, PendingWait> bySession = new HashMap<>();

    public Change apply(EventEnvelope e) {
        switch (e.event()) {
            case SessionEvent.WaitScheduled w -> {
                PendingWait wait = new PendingWait(w.waitId(), w.until(), w.reason(), w.callId());
                bySession.put(e.sessionId(), wait);
                return new Change.Armed(e.sessionId(), wait);
            }
            case SessionEvent.WaitEnded w -> {
                return disarm(e.sessionId());
            }
            case SessionEvent.TurnEnded t -> {
                return disarm(e.sessionId());
            }
            default -> {
                return new Change.None();
            }
        }
    }

    private Change disarm(String sessionId) {
        PendingWait removed = bySession.remove(sessionId);
        return removed == null ? new Change.None() : new Change.Disarmed(sessionId, removed.waitId());
    }

    public Map<String, PendingWait> pending() {
        return Collections.unmodifiableMap(bySession);
    }
}
