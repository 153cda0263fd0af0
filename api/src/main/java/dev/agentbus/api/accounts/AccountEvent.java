package dev.agentbus.api.accounts;

import com.fasterxml.jackson.databind.JsonNode;

import java.time.Instant;

/**
 * One record of the account audit ({@code GET /api/v1/audit/accounts}, {@code GET /api/v1/admin/account-events}):
 * a login, a failed login, a key made or revoked, an invite, a role or password change. {@code userId} is whom it
 * is about, {@code actorId} who did it, {@code address} the client's address.
 */
public record AccountEvent(long id, Instant time, String type, String userId, String actorId, String address,
                           JsonNode details) {
}
