package dev.agentbus.api.accounts;

import java.time.Instant;

/** {@code POST /api/v1/admin/invites}: a single-use sign-up code, shown once. */
public record Invite(String code, String role, Instant expiresAt) {
}
