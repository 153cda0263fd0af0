package dev.agentbus.api.inbox;

import com.fasterxml.jackson.annotation.JsonInclude;

import java.time.Instant;

/**
 * One task of the caller's inbox. {@code status} is {@code queued} until the scheduler has started it, then
 * {@code started}, with {@code sessionId} (the task's id: the session it started) and {@code startedAt}.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record InboxItem(String id, String title, String text, Instant at, Instant submittedAt, String status,
                        String sessionId, Instant startedAt) {
    public static final String QUEUED = "queued";
    public static final String STARTED = "started";
}
