package dev.agentbus.api.accounts;

import java.time.Instant;

/** {@code POST /api/v1/me/api-keys}: the only time {@code key} is shown; only its hash is kept. */
public record CreatedApiKey(String id, String name, String key, Instant createdAt) {
}
