package dev.agentbus.gateway.notifying;

import java.time.Instant;

/** One notification for one user, as the rules make it from an event of the user's session. */
record Notification(String userId, String eventId, String sessionId, long seq, NotificationKind kind, String title,
                    String body, Instant createdAt) {
}
