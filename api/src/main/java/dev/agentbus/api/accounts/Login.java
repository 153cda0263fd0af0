package dev.agentbus.api.accounts;

import java.time.Instant;

/** One of the caller's browser logins ({@code GET /api/v1/me/logins}); {@code current} marks the asking one. */
public record Login(String loginId, Instant createdAt, Instant lastSeenAt, Instant expiresAt, String address,
                    String userAgent, boolean current) {
}
