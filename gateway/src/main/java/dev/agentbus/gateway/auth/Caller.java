package dev.agentbus.gateway.auth;

/**
 * Who sent a request, as {@link AuthenticationFilter} proved it. Controllers read it with {@link Callers}.
 *
 * @param userId        the owner id in session events, workspaces and Kafka keys
 * @param via           how the request proved it
 * @param credentialId  the login's id (browser) or the API key's id; null for the gateway token
 * @param csrfToken     a browser login's CSRF token; null otherwise
 * @param totpEnabled   the account logs in with a second factor
 */
public record Caller(String userId, String username, Role role, Via via, String credentialId, String csrfToken,
                     boolean totpEnabled) {

    public enum Via {
        LOGIN("login"), API_KEY("api-key"), GATEWAY_TOKEN("gateway-token");

        private final String wireName;

        Via(String wireName) {
            this.wireName = wireName;
        }

        public String wireName() {
            return wireName;
        }
    }

    public boolean isAdmin() {
        return role == Role.ADMIN;
    }
}
