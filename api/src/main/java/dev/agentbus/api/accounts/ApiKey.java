package dev.agentbus.api.accounts;

import java.time.Instant;

/** One of the caller's API keys ({@code GET /api/v1/me/api-keys}); the key itself is never shown again. */
public record ApiKey(String id, String name, Instant createdAt, Instant lastUsedAt, Instant revokedAt) {
}
