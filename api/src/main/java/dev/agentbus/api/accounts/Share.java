package dev.agentbus.api.accounts;

import java.time.Instant;

/** A session shared with a group ({@code /api/v1/sessions/{id}/shares}): {@code mode} is {@code read} or {@code write}. */
public record Share(String sessionId, String groupId, String mode, String sharedBy, Instant sharedAt) {
}
