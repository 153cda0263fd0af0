package dev.agentbus.gateway.notifying;

import dev.agentbus.events.session.EventEnvelope;
import dev.agentbus.events.session.SessionEvent;
import dev.agentbus.events.session.Urgency;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.Set;

/**
 * Which events of a session notify its owner, and what the notification says. Pure: the projector calls it for every
 * event of the log, with the owner's chosen kinds and the session's title.
 */
final class NotificationRules {
    /**
     * Events older than this when the projector reads them notify nobody: a new database, or a log read again from
     * the start, must not flood people with what happened long ago.
     */
    static final Duration MAX_AGE = Duration.ofDays(1);
    static final int MAX_BODY_CHARS = 500;

    private NotificationRules() {
    }

    static Optional<Notification> of(EventEnvelope e, String sessionTitle, Set<NotificationKind> on, Instant now) {
        if (e.userId() == null || e.time() == null || e.time().isBefore(now.minus(MAX_AGE))) {
            return Optional.empty();
        }
        String where = sessionTitle == null || sessionTitle.isBlank() ? "session " + e.sessionId()
                : "“" + sessionTitle + "”";
        Optional<Notification> made = switch (e.event()) {
            case SessionEvent.TurnEnded t -> make(e, NotificationKind.TURN_ENDED,
                    "Turn " + t.outcome().name().toLowerCase().replace('_', ' ') + " in " + where,
                    t.answer() != null ? t.answer() : t.message());
            case SessionEvent.WaitEnded w when !w.interrupted() -> make(e, NotificationKind.WAIT_FIRED,
                    "A wait came to its time in " + where, "The agent goes on with the turn.");
            case SessionEvent.ApprovalRequested a -> make(e, NotificationKind.APPROVAL_PENDING,
                    "Approval needed in " + where, a.tool() + " (" + (a.risk() == null ? "?" : a.risk().name()
                            .toLowerCase()) + " risk) " + (a.arguments() == null ? "" : a.arguments())
                            + (a.expiresAt() == null ? "" : "; expires at " + a.expiresAt()));
            case SessionEvent.NotificationPosted n -> make(e, NotificationKind.MESSAGE, (n.urgency() == Urgency.HIGH
                    ? "Urgent: notification" : "Notification") + (n.byAgent() ? " from the agent in " : " from ")
                    + where, n.message());
            default -> Optional.empty();
        };
        return made.filter(n -> on.contains(n.kind()));
    }

    private static Optional<Notification> make(EventEnvelope e, NotificationKind kind, String title, String body) {
        String cut = body == null ? null : body.length() <= MAX_BODY_CHARS ? body
                : body.substring(0, MAX_BODY_CHARS - 1) + "…";
        return Optional.of(new Notification(e.userId(), e.id(), e.sessionId(), e.seq(), kind, title, cut, e.time()));
    }
}
