package dev.agentbus.gateway.auth;

import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.context.annotation.Property;
import io.micronaut.core.bind.annotation.Bindable;

import java.time.Duration;

/**
 * How people prove who they are ({@code agentbus.auth.*}, environment {@code AGENTBUS_AUTH_*}); see
 * docs/configuration.md and docs/security.md.
 *
 * @param adminPassword        the first admin's password ({@code agentbus.admin-password}, {@code AGENTBUS_ADMIN_PASSWORD}); blank: generate one
 * @param passwordMinLength    the shortest password accepted
 * @param loginIdleTimeout     a browser login ends after this long without a request (sliding expiry)
 * @param loginMaxAge          and after this long in any case
 * @param secureCookies        mark the login cookie Secure even on plain HTTP: for TLS ended by a reverse proxy
 * @param loginFailuresPerMinute failed logins allowed per username and per address in a minute, then 429 (for an
 *                             address, only for wrong passwords: {@link LoginThrottle})
 * @param apiRequestsPerMinute requests one API key (or login, or the gateway token) may make in a minute, then 429
 * @param inviteValidity       how long an invite works when its creator does not say
 * @param trustedProxies       reverse proxies whose {@code X-Forwarded-For} names the client ({@link TrustedProxies});
 *                             blank: none, the connection's address is the client's
 */
@ConfigurationProperties("agentbus.auth")
public record AuthSettings(
        @Property(name = "agentbus.admin-password") @Bindable(defaultValue = "") String adminPassword,
        @Bindable(defaultValue = "12") int passwordMinLength,
        @Bindable(defaultValue = "12h") Duration loginIdleTimeout,
        @Bindable(defaultValue = "7d") Duration loginMaxAge,
        @Bindable(defaultValue = "false") boolean secureCookies,
        @Bindable(defaultValue = "10") int loginFailuresPerMinute,
        @Bindable(defaultValue = "6000") int apiRequestsPerMinute,
        @Bindable(defaultValue = "7d") Duration inviteValidity,
        @Bindable(defaultValue = "") String trustedProxies) {

    public AuthSettings {
        adminPassword = adminPassword == null ? "" : adminPassword;
        require(passwordMinLength >= 8 && passwordMinLength <= 256, "password-min-length must be 8 to 256");
        require(positive(loginIdleTimeout), "login-idle-timeout must be positive");
        require(positive(loginMaxAge), "login-max-age must be positive");
        require(loginFailuresPerMinute >= 1, "login-failures-per-minute must be at least 1");
        require(apiRequestsPerMinute >= 1, "api-requests-per-minute must be at least 1");
        require(positive(inviteValidity), "invite-validity must be positive");
        trustedProxies = trustedProxies == null ? "" : trustedProxies.strip();
        TrustedProxies.parse(trustedProxies); // refuses a bad entry at start, with its name
    }

    /** The trusted proxies, parsed. */
    TrustedProxies proxies() {
        return TrustedProxies.parse(trustedProxies);
    }

    /** The defaults, for tests and tools that build a gateway piece without Micronaut. */
    public static AuthSettings defaults() {
        return new AuthSettings("", 12, Duration.ofHours(12), Duration.ofDays(7), false, 10, 6000,
                Duration.ofDays(7), "");
    }

    private static boolean positive(Duration d) {
        return d != null && d.isPositive();
    }

    private static void require(boolean ok, String message) {
        if (!ok) {
            throw new IllegalArgumentException("agentbus.auth." + message);
        }
    }

    /** Never prints the password: settings end up in logs and error messages. */
    @Override
    public String toString() {
        return "AuthSettings[adminPassword=" + (adminPassword.isBlank() ? "<generate>" : "<set>")
                + ", passwordMinLength=" + passwordMinLength + ", loginIdleTimeout=" + loginIdleTimeout
                + ", loginMaxAge=" + loginMaxAge + ", secureCookies=" + secureCookies + ", loginFailuresPerMinute="
                + loginFailuresPerMinute + ", apiRequestsPerMinute=" + apiRequestsPerMinute + ", inviteValidity="
                + inviteValidity + ", trustedProxies=" + trustedProxies + "]";
    }
}
