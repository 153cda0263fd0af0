package dev.agentbus.api.notifying;

import com.fasterxml.jackson.annotation.JsonInclude;

import java.time.Instant;

/**
 * One notification of the caller: {@code id} grows with every notification (mark read up to it), {@code kind} is
 * turn_ended, wait_fired, approval_pending or message, {@code seq} the event of the session it comes from.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record NotificationItem(long id, String sessionId, long seq, String kind, String title, String body,
                               Instant createdAt, boolean read) {
}
