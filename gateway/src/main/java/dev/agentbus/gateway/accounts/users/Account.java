package dev.agentbus.gateway.accounts.users;

import dev.agentbus.gateway.auth.Role;

import java.time.Instant;

/** A row of {@code accounts}: internal, never an API answer (that is {@link dev.agentbus.api.accounts.User}). */
public record Account(String userId, String username, Role role, String passwordHash, String totpSecret,
                      boolean totpEnabled, long totpLastStep, Instant createdAt) {
}
