package dev.agentbus.gateway.accounts.signingin;

import java.time.Instant;

/** A row of {@code login_sessions} (a browser login), internal. */
public record LoginSession(String loginId, String userId, String csrfToken, Instant createdAt, Instant lastSeenAt,
                           Instant expiresAt, Instant absoluteExpiresAt, String address, String userAgent) {

    public boolean liveAt(Instant now) {
        return now.isBefore(expiresAt) && now.isBefore(absoluteExpiresAt);
    }
}
