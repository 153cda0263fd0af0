package dev.agentbus.api.accounts;

import java.time.Instant;
import java.util.List;

/** An account as an admin sees it ({@code GET /api/v1/admin/users}). */
public record User(String userId, String username, String role, boolean totpEnabled, Instant createdAt,
                   List<String> groups) {
}
