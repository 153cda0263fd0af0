package dev.agentbus.scheduler.schedulingwaits;

import dev.agentbus.events.session.EventEnvelope;
import dev.agentbus.events.session.SessionEvent;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Which approvals wait for a person, and until when, folded from session events: one is pending from
 * {@code approval.requested.v1} until its {@code approval.decided.v1} or the end of its turn. Plain and
 * single-threaded; the caller owns the timers.
 */
final class PendingApprovals {
    /** What folding one event changed, per approval. */
    sealed interface Change {
        record Armed(String sessionId, String callId, Instant expiresAt) implements Change {
        }

        record Disarmed(String sessionId, String callId) implements Change {
        }
    }

    private final Map<String, Map<String, Instant>> bySession = new HashMap<>();

    List<Change> apply(EventEnvelope e) {
        switch (e.event()) {
            case SessionEvent.ApprovalRequested a -> {
                if (a.callId() == null || a.expiresAt() == null) {
                    return List.of();
                }
                bySession.computeIfAbsent(e.sessionId(), s -> new LinkedHashMap<>()).put(a.callId(), a.expiresAt());
                return List.of(new Change.Armed(e.sessionId(), a.callId(), a.expiresAt()));
            }
            case SessionEvent.ApprovalDecided d -> {
                Map<String, Instant> pending = bySession.get(e.sessionId());
                if (pending == null || pending.remove(d.callId()) == null) {
                    return List.of();
                }
                if (pending.isEmpty()) {
                    bySession.remove(e.sessionId());
                }
                return List.of(new Change.Disarmed(e.sessionId(), d.callId()));
            }
            case SessionEvent.TurnEnded t -> {
                // A cancelled turn takes its approvals with it; the decider would ignore their time-outs anyway.
                Map<String, Instant> pending = bySession.remove(e.sessionId());
                List<Change> out = new ArrayList<>();
                if (pending != null) {
                    pending.keySet().forEach(callId -> out.add(new Change.Disarmed(e.sessionId(), callId)));
                }
                return out;
            }
            default -> {
                return List.of();
            }
        }
    }

    Map<String, Map<String, Instant>> pending() {
        return bySession;
    }
}
