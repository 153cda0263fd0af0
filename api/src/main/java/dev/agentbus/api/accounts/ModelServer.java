package dev.agentbus.api.accounts;

import java.time.Instant;

/**
 * {@code GET/PUT/DELETE /api/v1/me/model}: the caller's own model server. {@code own} false: the team's server is
 * used (its address is not shown). The API key is never returned, only whether there is one. {@code temperature},
 * {@code topP} and {@code maxTokens} are the caller's own sampling; null: the installation's.
 */
public record ModelServer(boolean own, String baseUrl, String model, boolean hasApiKey, Instant updatedAt,
                          Double temperature, Double topP, Integer maxTokens) {
}
