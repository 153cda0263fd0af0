package dev.agentbus.api.accounts;

import java.time.Instant;

/** {@code POST /api/v1/auth/login}: the login cookie is set; the CSRF token goes with every state-changing request. */
public record LoggedIn(String userId, String username, String role, String loginId, String csrfToken,
                       Instant expiresAt, boolean mustEnrolTotp) {
}
