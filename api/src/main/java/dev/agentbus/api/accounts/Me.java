package dev.agentbus.api.accounts;

/**
 * {@code GET /api/v1/me}: the caller.
 *
 * @param via       how this request proved who it is: {@code login} (browser cookie), {@code api-key} or
 *                  {@code gateway-token} (the standalone token, which acts as the first admin)
 * @param csrfToken for a browser login only: the value every state-changing request must send as
 *                  {@code X-CSRF-Token}; null otherwise
 * @param mustEnrolTotp the team requires two-factor login and this account has not enrolled yet: until it does, a
 *                  browser login reaches only {@code /api/v1/me}, {@code /api/v1/me/totp*} and logout
 */
public record Me(String userId, String username, String role, boolean totpEnabled, String via, String csrfToken,
                 boolean mustEnrolTotp) {
}
